/**
 * Runs CLI commands the way a script would — piped streams, a temporary data and config dir — in
 * this process through the program object (fast), or by spawning the built binary (`spawn: true`,
 * for what only a process shows: signals, exit, the bundle).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { IO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { Engine } from '../../src/engine/engine.js';
import { tempDataDir } from './engines.js';

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');

export interface CliSandbox {
  dataDir: string;
  configDir: string;
  env: Record<string, string>;
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  spawn(args: string[], options?: { env?: Record<string, string>; cwd?: string }): ResultPromise;
  cleanup(): void;
}

/** TUBEKIT_TEST_CLI=spawn runs every command through the built binary (to compare, or to chase a difference). */
const SPAWN_ALL = process.env.TUBEKIT_TEST_CLI === 'spawn' ? true : undefined;

export interface RunOptions {
  input?: string;
  env?: Record<string, string>;
  cwd?: string;
  /** Spawn the built binary instead of running the program in this process. */
  spawn?: boolean;
}

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** `spawn: true` makes every run of the sandbox spawn the built binary (suites about the process itself). */
export function cliSandbox(sandboxOptions: { spawn?: boolean } = {}): CliSandbox {
  const root = tempDataDir('tubekit-cli-');
  const dataDir = path.join(root, 'data');
  const configDir = path.join(root, 'config');
  const env = { TUBEKIT_DATA_DIR: dataDir, TUBEKIT_CONFIG_DIR: configDir, NO_COLOR: '1', TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '' };
  return {
    dataDir,
    configDir,
    env,
    async run(args, options = {}) {
      if (!(options.spawn ?? sandboxOptions.spawn ?? SPAWN_ALL)) return runInProcess(args, { ...env, ...options.env }, options);
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

/** Commands in this process run one at a time: each owns process.env, the cwd and the exit code while it runs. */
let inProcessQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs `tubekit <args>` through the program object on memory streams. The environment is the
 * binary's would be (this process's, with the sandbox's on top), swapped in for the call because
 * the engine and the workers it spawns read process.env.
 */
export function runInProcess(args: string[], env: Record<string, string>, options: { input?: string; cwd?: string } = {}): Promise<CliResult> {
  const run = async (): Promise<CliResult> => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const stdin = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    stdin.end(options.input ?? '');
    const savedEnv = process.env;
    const savedCwd = process.cwd();
    process.env = { ...savedEnv, ...env };
    process.exitCode = undefined;
    if (options.cwd) process.chdir(options.cwd);
    try {
      const exitCode = await main(['node', BIN, ...args], new IO({ stdout, stderr, stdin, env: process.env }));
      await Promise.all([finished(stdout.end()), finished(stderr.end())]);
      return { stdout: out, stderr: err, exitCode };
    } finally {
      process.env = savedEnv;
      process.exitCode = undefined;
      if (options.cwd) process.chdir(savedCwd);
    }
  };
  const result = inProcessQueue.then(run, run);
  inProcessQueue = result.catch(() => undefined);
  return result;
}
