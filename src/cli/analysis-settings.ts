/**
 * The vision model settings an engine started from this CLI uses (serve, the job worker, the
 * embedded engine): its own environment, and the `analysis.*` settings of its profile, read again
 * from the config file whenever a job resolves them (so `config set` applies to the next job).
 */
import fs from 'node:fs';
import type { AnalysisProfile, AnalysisSettingName, AnalysisSettingsSource } from '../engine/features/analysis/providers/provider-config.js';
import type { SpeechProfile, SpeechSettingsSource } from '../engine/speech/providers/speech-settings.js';
import type { ConfigStore } from './config.js';

const NAMES: AnalysisSettingName[] = ['provider', 'base_url', 'model', 'api_key', 'timeout'];

export function analysisSettingsSource(env: NodeJS.ProcessEnv, config: ConfigStore, profileName: string): AnalysisSettingsSource {
  return {
    env,
    profile(): AnalysisProfile {
      const profile = config.profile(profileName) as Record<string, string | undefined>;
      const values: AnalysisProfile['values'] = {};
      for (const name of NAMES) {
        const value = profile[`analysis.${name}`];
        if (value !== undefined) values[name] = value;
      }
      return { values, file: config.file, mode: fileMode(config.file) };
    },
  };
}

/** The same for the upstream speech providers' `elevenlabs.*` and `minimax.*` settings. */
export function speechSettingsSource(env: NodeJS.ProcessEnv, config: ConfigStore, profileName: string): SpeechSettingsSource {
  return {
    env,
    profile(): SpeechProfile {
      const profile = config.profile(profileName) as Record<string, string | undefined>;
      const values = Object.fromEntries(Object.entries(profile).filter(([key]) => key.startsWith('elevenlabs.') || key.startsWith('minimax.')));
      return { values, file: config.file, mode: fileMode(config.file) };
    },
  };
}

function fileMode(file: string): number | undefined {
  try {
    return fs.statSync(file).mode;
  } catch {
    return undefined; // No file: nothing was read from it.
  }
}
