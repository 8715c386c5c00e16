/**
 * How long a channel job pretends to work in the sample world: a second or two by default (so
 * queued and running can be watched), the spec's realistic 30 s – 2 min on request, or none.
 * Stored in settings so the detached worker and serve see what the CLI set.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { badRequest } from '../../../core/errors.js';
import type { Settings } from '../../store/settings.js';

export interface WorkDuration {
  min_ms: number;
  max_ms: number;
}

export const workPresets: Record<string, WorkDuration> = {
  instant: { min_ms: 0, max_ms: 0 },
  short: { min_ms: 1_000, max_ms: 2_000 },
  realistic: { min_ms: 30_000, max_ms: 120_000 },
};

const SETTINGS_KEY = 'channel-job-duration';

export function channelJobDuration(settings: Settings): WorkDuration {
  return settings.get<WorkDuration>(SETTINGS_KEY) ?? workPresets.short!;
}

/** Accepts a preset name, milliseconds ("1500") or a range ("500-2000"). */
export function parseWorkDuration(text: string): WorkDuration {
  const preset = workPresets[text];
  if (preset) return preset;
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) {
    throw badRequest(`Unknown duration "${text}".`, `Use ${Object.keys(workPresets).join(', ')}, milliseconds (1500) or a range (500-2000).`);
  }
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (max < min) throw badRequest(`The range "${text}" ends before it starts.`);
  return { min_ms: min, max_ms: max };
}

export function setChannelJobDuration(settings: Settings, duration: WorkDuration): void {
  settings.set(SETTINGS_KEY, duration);
}

/** The job's share of the range, stable per job id so a re-run takes as long. */
export function durationFor(jobId: number, duration: WorkDuration): number {
  const span = duration.max_ms - duration.min_ms;
  if (span <= 0) return duration.min_ms;
  const spread = (Math.imul(jobId, 2654435761) >>> 0) / 2 ** 32;
  return duration.min_ms + Math.round(spread * span);
}

export async function simulateWork(settings: Settings, jobId: number, signal: AbortSignal): Promise<void> {
  const ms = durationFor(jobId, channelJobDuration(settings));
  if (ms > 0) await sleep(ms, undefined, { signal });
}
