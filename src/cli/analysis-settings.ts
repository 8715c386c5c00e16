/**
 * The vision model settings an engine started from this CLI uses (serve, the job worker, the
 * embedded engine): its own environment, and the `analysis.*` settings of its profile, read again
 * from the config file whenever a job resolves them (so `config set` applies to the next job).
 */
import fs from 'node:fs';
import type { AnalysisProfile, AnalysisSettingName, AnalysisSettingsSource } from '../engine/features/analysis/providers/provider-config.js';
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
      let mode: number | undefined;
      try {
        mode = fs.statSync(config.file).mode;
      } catch {
        // No file: nothing was read from it.
      }
      return { values, file: config.file, mode };
    },
  };
}
