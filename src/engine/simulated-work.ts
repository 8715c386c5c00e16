/**
 * How long the sample world's slow activities pretend to work: channel jobs, and any other step
 * that takes real time on the hosted service (live checks, classifiers, uploads). One setting for
 * all of them, shared through the engine's settings so the detached worker and serve see what the
 * CLI set:
 *  - a preset: `short` (the default: a second or two, so states can be watched), `realistic` (the
 *    spec's ranges), `instant`;
 *  - or explicit milliseconds (`1500`, `500-2000`), which every activity then takes.
 *
 * Features add their activity to `workActivities` with its short and realistic ranges.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { badRequest } from '../core/errors.js';
import { hashString } from './hash.js';
import type { Settings } from './store/settings.js';

export interface WorkDuration {
  min_ms: number;
  max_ms: number;
}

export const WORK_PRESETS = ['short', 'realistic', 'instant'] as const;
export type WorkPreset = (typeof WORK_PRESETS)[number];

/** What is stored: a preset, or one range for every activity. */
export type WorkSetting = { preset: WorkPreset } | WorkDuration;

const range = (min_ms: number, max_ms: number): WorkDuration => ({ min_ms, max_ms });

/** Each activity's range under the `short` and `realistic` presets (`instant` is always 0). */
export const workActivities = {
  'channel-job': { short: range(1_000, 2_000), realistic: range(30_000, 120_000) },
  // Channel checks: the spec's 10–60 s managed-network live check, and up to 60 s for the others.
  'cms-live-check': { short: range(300, 1_000), realistic: range(10_000, 60_000) },
  'ad-check': { short: range(300, 1_000), realistic: range(5_000, 60_000) },
  'monetization-classifier': { short: range(300, 1_000), realistic: range(10_000, 60_000) },
  // Video analysis: the upload (skipped when a recent one is reused), then the vision model's pass.
  'analysis-upload': { short: range(800, 1_500), realistic: range(20_000, 90_000) },
  analysis: { short: range(500, 1_000), realistic: range(15_000, 60_000) },
  // On top of the real rendering (already work enough under `short`); the hosted service can take minutes.
  download: { short: range(0, 0), realistic: range(10_000, 150_000) },
} satisfies Record<string, Record<Exclude<WorkPreset, 'instant'>, WorkDuration>>;

export type WorkActivity = keyof typeof workActivities;

const SETTINGS_KEY = 'channel-job-duration';
const DEFAULT_SETTING: WorkSetting = { preset: 'short' };

export function workSetting(settings: Settings): WorkSetting {
  return settings.get<WorkSetting>(SETTINGS_KEY) ?? DEFAULT_SETTING;
}

export function setWorkSetting(settings: Settings, setting: WorkSetting): Promise<void> {
  return settings.set(SETTINGS_KEY, setting);
}

/** One range for every activity, milliseconds (tests and benchmarks). */
export function setWorkDuration(settings: Settings, duration: WorkDuration): Promise<void> {
  return setWorkSetting(settings, duration);
}

/** The range an activity takes under the current setting. */
export function workDuration(settings: Settings, activity: WorkActivity): WorkDuration {
  const setting = workSetting(settings);
  if (!('preset' in setting)) return setting;
  if (setting.preset === 'instant') return range(0, 0);
  return workActivities[activity][setting.preset];
}

/** Accepts a preset name, milliseconds ("1500") or a range ("500-2000"). */
export function parseWorkSetting(text: string): WorkSetting {
  if ((WORK_PRESETS as readonly string[]).includes(text)) return { preset: text as WorkPreset };
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) {
    throw badRequest(`Unknown duration "${text}".`, `Use ${WORK_PRESETS.join(', ')}, milliseconds (1500) or a range (500-2000).`);
  }
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (max < min) throw badRequest(`The range "${text}" ends before it starts.`);
  return range(min, max);
}

/** A point in the range, stable per key (a job id, a channel id) so a re-run takes as long. */
export function durationFor(key: number | string, duration: WorkDuration): number {
  const span = duration.max_ms - duration.min_ms;
  if (span <= 0) return duration.min_ms;
  const spread = (typeof key === 'number' ? Math.imul(key, 2654435761) >>> 0 : hashString(key)) / 2 ** 32;
  return duration.min_ms + Math.round(spread * span);
}

/** Waits as long as the activity takes for this key (aborted by `signal`). */
export async function simulateWork(settings: Settings, activity: WorkActivity, key: number | string, signal?: AbortSignal): Promise<void> {
  const ms = durationFor(key, workDuration(settings, activity));
  if (ms > 0) await sleep(ms, undefined, { signal });
}
