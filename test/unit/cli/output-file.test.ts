import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../../../src/core/client-errors.js';
import { checkOutputFile, writeFileAtomically } from '../../../src/cli/output-file.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-output-file-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const usageErrorOf = (run: () => unknown): CliError => {
  try {
    run();
  } catch (error) {
    return error as CliError;
  }
  throw new Error('expected a usage error');
};

describe('the one -o policy', () => {
  it('refuses an existing file without --force, saying so and how to fix it, and accepts it with --force', () => {
    const taken = path.join(dir, 'taken.mp3');
    fs.writeFileSync(taken, 'mine');
    const error = usageErrorOf(() => checkOutputFile(taken, { force: false, example: 'speech.mp3' }));
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/taken\.mp3 already exists; tubekit does not write over a file without --force/);
    expect(error.hint).toMatch(/Pass --force to overwrite it/);
    expect(() => checkOutputFile(taken, { force: true, example: 'speech.mp3' })).not.toThrow();
    expect(usageErrorOf(() => checkOutputFile(dir, { force: true, example: 'speech.mp3' })).message).toMatch(/is a directory; give a file name such as .*speech\.mp3/);
    expect(usageErrorOf(() => checkOutputFile(path.join(dir, 'missing', 'x.mp3'), { force: false, example: 'x' })).message).toMatch(/does not exist or is not writable/);
  });

  it('writes text, bytes and streams through a temporary file, leaving nothing else behind', async () => {
    await writeFileAtomically(path.join(dir, 'a.txt'), 'text\n', { force: false });
    await writeFileAtomically(path.join(dir, 'b.bin'), Buffer.from([1, 2, 3]), { force: false });
    await writeFileAtomically(path.join(dir, 'c.txt'), Readable.from(['one ', 'two']), { force: false });
    expect(fs.readdirSync(dir).sort()).toEqual(['a.txt', 'b.bin', 'c.txt']);
    expect(fs.readFileSync(path.join(dir, 'c.txt'), 'utf8')).toBe('one two');
  });

  it('never replaces a file that appeared meanwhile without --force, and replaces it with --force', async () => {
    const target = path.join(dir, 'late.txt');
    const source = Readable.from(
      (async function* () {
        yield 'new';
        fs.writeFileSync(target, 'appeared meanwhile');
      })(),
    );
    await expect(writeFileAtomically(target, source, { force: false })).rejects.toThrow(/already exists/);
    expect(fs.readFileSync(target, 'utf8')).toBe('appeared meanwhile');
    expect(fs.readdirSync(dir)).toEqual(['late.txt']);
    await writeFileAtomically(target, 'forced', { force: true });
    expect(fs.readFileSync(target, 'utf8')).toBe('forced');
  });

  it('leaves nothing under the final name when the stream breaks', async () => {
    const target = path.join(dir, 'broken.mp4');
    const source = Readable.from(
      (async function* () {
        yield 'half';
        throw new Error('connection dropped');
      })(),
    );
    await expect(writeFileAtomically(target, source, { force: false })).rejects.toThrow(/connection dropped/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
