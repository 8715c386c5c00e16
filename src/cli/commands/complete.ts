/**
 * `tubekit __complete <kind>` (hidden): the values shell completion offers, one per line as
 * `value<TAB>description`. Silent on any failure: a Tab must never print an error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { COMPLETION_KINDS, type CompletionKind } from '../completion/dynamic.js';
import { examples } from '../help.js';

/** How long a remote list is reused; a stale one is still better than none when the service is slow. */
const CACHE_FRESH_MS = 5 * 60_000;
/** Remote lists are fetched with this bound: completion must stay quick. */
const REMOTE_TIMEOUT_MS = 2_000;

type Candidate = [value: string, description: string];

async function fetchCandidates(app: CliApp, kind: CompletionKind): Promise<Candidate[]> {
  if (kind === 'folder') {
    const { folders } = await app.call('folders.list', {});
    return folders.map((folder) => [String(folder.id), folder.name]);
  }
  const candidates: Candidate[] = [];
  for (const route of ['voices.stealth.list', 'voices.alt.list'] as const) {
    const { voices } = await app.call(route, {}).catch(() => ({ voices: [] as Array<{ voice_id: string; name: string; language: string; is_cloned: boolean }> }));
    // Only clones can be deleted: the built-in voices are the service's.
    const offered = kind === 'deletable-voice' ? voices.filter((voice) => voice.is_cloned) : voices;
    candidates.push(...offered.map((voice): Candidate => [voice.voice_id, `${voice.name} (${voice.language})`]));
  }
  return candidates;
}

function cacheFile(app: CliApp, kind: CompletionKind): string {
  const env = app.io.streams.env;
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const target = `${app.settings.profileName}-${Buffer.from(app.settings.baseUrl ?? '').toString('base64url')}`;
  return path.join(base, 'tubekit', 'completion', `${kind}-${target}.json`);
}

/** Remote lists through a small cache (mode 0600: ids and names are the user's own). */
async function cachedCandidates(app: CliApp, kind: CompletionKind): Promise<Candidate[]> {
  const file = cacheFile(app, kind);
  let cached: { at: number; candidates: Candidate[] } | undefined;
  try {
    cached = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    cached = undefined;
  }
  if (cached && Date.now() - cached.at < CACHE_FRESH_MS) return cached.candidates;
  try {
    const candidates = await fetchCandidates(app, kind);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify({ at: Date.now(), candidates }), { mode: 0o600 });
    return candidates;
  } catch {
    return cached?.candidates ?? [];
  }
}

export function registerComplete(program: Command, app: CliApp): void {
  program
    .command('__complete <kind>', { hidden: true })
    .description('values for shell completion')
    .addHelpText('before', examples(['tubekit __complete folder', 'tubekit __complete voice', 'tubekit --data-dir ~/other __complete deletable-voice']))
    .action(async (kind: string) => {
      if (!(COMPLETION_KINDS as readonly string[]).includes(kind)) return;
      try {
        const remote = app.settings.mode === 'remote';
        if (remote) app.settings.timeoutMs = Math.min(app.settings.timeoutMs ?? REMOTE_TIMEOUT_MS, REMOTE_TIMEOUT_MS);
        app.serviceTuning = { maxRetries: 0 };
        const candidates = remote ? await cachedCandidates(app, kind as CompletionKind) : await fetchCandidates(app, kind as CompletionKind);
        for (const [value, description] of candidates) app.io.out(`${value}\t${description.replace(/[\t\n]/g, ' ')}`);
      } catch {
        // Nothing to offer; the shell falls back to its default.
      }
    });
}
