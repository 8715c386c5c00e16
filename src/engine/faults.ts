/**
 * Fault injection: named failures an engine can be told to simulate, so every failure branch of
 * the spec can be exercised on purpose (`tubekit engine faults set <name>`). Faults live in the
 * engine's settings, so every process sharing the data dir (CLI, detached worker, serve) sees them.
 *
 * Features add their fault to `knownFaults` with a one-line description and check it with
 * `hasFault(engine.settings, name)` at the point where the real failure would happen.
 */
import { badRequest } from '../core/errors.js';
import type { Settings } from './store/settings.js';

export const knownFaults: Record<string, string> = {
  'channel-job-fail': 'channel processing jobs fail with an upstream error after their simulated work',
  'alt-clone-upstream': 'the alt voice provider refuses clones: POST /api/voices/alt/clone answers 502 and saves nothing',
  'alt-delete-upstream': 'the alt voice provider fails to delete; the voice still leaves your library',
  'speech-synthesis': 'generation jobs fail, so a job ending `failed` with its `error` can be seen',
  'cms-no-verdict': 'managed-network live checks get no verdict: the answer is `unchecked` with a hint, and nothing is stored',
  'ad-pages-blocked': 'every watch page blocks reads: ad-monetization checks answer `monetized: null` (unknown), and store it',
  'ad-flip': 'ad-monetization checks of a channel with a known verdict find the opposite (pages read cleanly): each check flips, so `monetized --exit-on-flip` exits 11',
  'monetization-classifier-fail': 'the external-monetization classifier fails: live runs answer 502 upstream_error and store nothing',
  'video-analysis': 'video analysis jobs fail: the vision model answers with an error after the upload',
  'disk-full': 'the disk is full: every file the engine writes (downloads, voice samples, generated audio) fails half-way with ENOSPC, so the request answers 507 insufficient_storage and leaves nothing behind; health reports it',
  'download-upstream': 'downloads that need a new file fail: POST /api/download-video answers 502 upstream_error, takes no slot and counts nothing (cached files are still served)',
  'download-partial-quality': 'video downloads deliver the next lower height than asked (1080p gives 720p): the answer\'s quality is the delivered height, with requested_quality and quality_note',
};

const SETTINGS_KEY = 'faults';

export function activeFaults(settings: Settings): string[] {
  return settings.get<string[]>(SETTINGS_KEY) ?? [];
}

export function hasFault(settings: Settings, name: string): boolean {
  return activeFaults(settings).includes(name);
}

function checkFaultName(name: string): void {
  if (!Object.hasOwn(knownFaults, name)) {
    throw badRequest(`Unknown fault "${name}".`, `Known faults: ${Object.keys(knownFaults).join(', ')}.`);
  }
}

/** Turns a fault on; returns the active list. */
export async function setFault(settings: Settings, name: string): Promise<string[]> {
  checkFaultName(name);
  const faults = activeFaults(settings);
  const next = faults.includes(name) ? faults : [...faults, name].sort();
  await settings.set(SETTINGS_KEY, next);
  return next;
}

/** Turns one fault off, or all of them when no name is given; returns the active list. */
export async function clearFault(settings: Settings, name?: string): Promise<string[]> {
  if (name === undefined) {
    await settings.delete(SETTINGS_KEY);
    return [];
  }
  checkFaultName(name);
  const next = activeFaults(settings).filter((fault) => fault !== name);
  if (next.length === 0) await settings.delete(SETTINGS_KEY);
  else await settings.set(SETTINGS_KEY, next);
  return next;
}
