/**
 * One check of `tubekit doctor`: a small module with an id, a title and a `run` that looks at one
 * thing and says whether it is there, and how to fix it when it is not. A new check is a new file
 * added to the list in checks/index.ts.
 */
import type { AnalysisSettingsSource } from '../../engine/features/analysis/providers/provider-config.js';
import type { SpeechSettingsSource } from '../../engine/speech/providers/speech-settings.js';
import type { Settings } from '../globals.js';

/** ok ✓; fail ✗; warn ! (works, but should be seen to); skip – (not used by this configuration). */
export type CheckStatus = 'ok' | 'fail' | 'warn' | 'skip';

export interface CheckResult {
  status: CheckStatus;
  /** What was found, in a few words ("ffmpeg 5.1.9"). */
  summary: string;
  /** How to fix it, when it is not ok. */
  fix?: string;
  /** Whether the current configuration needs it: a needed check that fails makes doctor exit 1. */
  needed: boolean;
}

export interface DoctorContext {
  settings: Settings;
  env: NodeJS.ProcessEnv;
  /** The data dir's platform (local mode), read once and shared by the checks that depend on it. */
  platform(): Promise<'sample' | 'live'>;
  /** Where a local engine started here reads its vision model's settings (environment, profile). */
  analysisSettings(): AnalysisSettingsSource;
  /** Where it reads the ElevenLabs and MiniMax keys. */
  speechSettings(): SpeechSettingsSource;
}

export interface DoctorCheck {
  id: string;
  title: string;
  run(context: DoctorContext): Promise<CheckResult>;
}
