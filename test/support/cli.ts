/** Runs the built binary the way a script would: piped streams, a temporary data and config dir. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { Engine } from '../../src/engine/engine.js';
import { tempDataDir } from './engines.js';

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');

export interface CliSandbox {
  dataDir: string;
  configDir: string;
  env: Record<string, string>;
  run(args: string[], options?: { input?: string; env?: Record<string, string>; cwd?: string }): Promise<{ stdout: string; stderr: string; exitCode: number }>;
  spawn(args: string[], options?: { env?: Record<string, string>; cwd?: string }): ResultPromise;
  cleanup(): void;
}

export function cliSandbox(): CliSandbox {
  const root = tempDataDir('tubekit-cli-');
  const dataDir = path.join(root, 'data');
  const configDir = path.join(root, 'config');
  const env = { TUBEKIT_DATA_DIR: dataDir, TUBEKIT_CONFIG_DIR: configDir, NO_COLOR: '1', TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '' };
  return {
    dataDir,
    configDir,
    env,
    async run(args, options = {}) {
      const result = await execa('node', [BIN, ...args], {
        env: { ...env, ...options.env },
        input: options.input ?? '',
        cwd: options.cwd,
        reject: false,
        stripFinalNewline: false,
        timeout: 60_000,
      });
      return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode ?? -1 };
    },
    spawn(args, options = {}) {
      return execa('node', [BIN, ...args], { env: { ...env, ...options.env }, cwd: options.cwd, reject: false, buffer: { stdout: false } });
    },
    cleanup() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Starts `tubekit serve --port 0` and resolves with its printed base URL. */
export async function startServe(sandbox: CliSandbox): Promise<{ url: string; stop(): Promise<void> }> {
  const child = sandbox.spawn(['serve', '--port', '0']);
  const url = await printedUrl(child);
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/** Stops the detached workers that submits in a sandbox started (idle, they would linger for 15 s). */
export function stopDetachedWorkers(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  for (const { pid } of engine.db.prepare<[], { pid: number }>('SELECT DISTINCT pid FROM job_workers').all()) {
    try {
      if (pid !== process.pid) process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  engine.close();
}

/** The base URL a spawned `tubekit serve` prints on stdout; rejects when it exits first. */
export function printedUrl(child: ReturnType<CliSandbox['spawn']>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((candidate) => candidate.startsWith('http'));
      if (line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
}
