/**
 * Starting a detached `tubekit engine worker --until-idle` for local CLI mode, so a submit returns
 * at once and the job still runs after the CLI exits. Its output goes to `worker.log` in the data dir.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePrivateFile } from '../store/private-file.js';
import { workerEnvironment } from './job-settings.js';

/** Starts a worker for the data dir (and the store the engine runs on, if not the data dir's); must not wait for it. */
export type WorkerSpawner = (dataDir: string, storeUrl?: string) => void;

export const workerLogFile = (dataDir: string) => path.join(dataDir, 'worker.log');

/**
 * The CLI launcher (`bin/tubekit.js`), found by walking up from this module: it sits at a different
 * depth when compiled (dist/src/engine/jobs) than when run from source (src/engine/jobs).
 */
export function findCliLauncher(from = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'bin', 'tubekit.js');
    if (fs.existsSync(candidate) && fs.existsSync(path.join(dir, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** `env`: the submitting command's job settings (job-settings.ts), in place of this process's own. */
export function spawnDetachedWorker(dataDir: string, storeUrl?: string, launcher = findCliLauncher(), env: Record<string, string> = {}): void {
  if (!launcher) throw new Error('Cannot find bin/tubekit.js to start a job worker; run `tubekit engine worker` yourself.');
  fs.mkdirSync(dataDir, { recursive: true });
  ensurePrivateFile(workerLogFile(dataDir));
  const log = fs.openSync(workerLogFile(dataDir), 'a');
  try {
    const child = spawn(process.execPath, [launcher, 'engine', 'worker', '--until-idle', '--data-dir', dataDir], {
      detached: true,
      stdio: ['ignore', log, log],
      // The worker opens the engine directly; it has no use for the caller's key. The store URL goes
      // by the environment: it may hold a password, which a command line would show to `ps`.
      env: { ...workerEnvironment(process.env, env), TUBEKIT_DATA_DIR: dataDir, TUBEKIT_API_KEY: '', TUBEKIT_STORE: storeUrl ?? '' },
    });
    child.on('error', () => undefined);
    child.unref();
  } finally {
    fs.closeSync(log);
  }
}
