/** An IO on in-memory streams, optionally pretending stdout (and stderr) are terminals. */
import { PassThrough } from 'node:stream';
import { IO } from '../../src/cli/io.js';

export function memoryIO(options: { terminal?: boolean; columns?: number; env?: NodeJS.ProcessEnv } = {}) {
  const stdout = Object.assign(new PassThrough(), { isTTY: options.terminal, columns: options.columns });
  const stderr = Object.assign(new PassThrough(), { isTTY: options.terminal });
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const io = new IO({ stdout, stderr, stdin: new PassThrough(), env: options.env ?? { NO_COLOR: '1' } });
  return { io, stdout: () => out, stderr: () => err };
}
