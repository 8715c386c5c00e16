/**
 * Voice samples never reach outside `samples/` of the files dir: their file names are ids of ours
 * (never a provider's), and every path a row holds is checked after resolution, links included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { OutsideRootError } from '../../../src/engine/contained-path.js';
import { keepSample, removeSample, sampleFile, samplePath } from '../../../src/engine/features/voices/sample-files.js';
import { tempDataDir } from '../../support/engines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}

it('names a new sample with an id of ours under samples/<provider>/, and keeps and removes it there', () => {
  const filesDir = tempDir();
  for (const provider of ['stealth', 'alt', 'elevenlabs'] as const) {
    const relative = samplePath(filesDir, provider, 'mp3');
    expect(relative).toMatch(new RegExp(`^samples/${provider}/[A-Za-z0-9_-]{16}\\.mp3$`));
    keepSample(filesDir, relative, Buffer.from('ID3'));
    expect(fs.readFileSync(path.join(filesDir, relative), 'utf8')).toBe('ID3');
    removeSample(filesDir, relative);
    expect(fs.existsSync(path.join(filesDir, relative))).toBe(false);
  }
  // Rows written before: a voice id as the name.
  expect(sampleFile(filesDir, 'samples/stealth/clone_AbC-12_x.wav')).toBe(path.join(filesDir, 'samples/stealth/clone_AbC-12_x.wav'));
});

it('refuses a row path that is not a sample place: climbing out, absolute, another folder', () => {
  const filesDir = tempDir();
  const outside = tempDir();
  const precious = path.join(outside, 'x.mp3');
  fs.writeFileSync(precious, 'not yours');
  for (const bad of ['../x.mp3', 'samples/stealth/../../../x.mp3', precious, 'samples/../tubekit.db', 'downloads/a/b.mp3', 'samples/stealth/a/b.mp3', 'samples/stealth/.mp3', 'samples/stealth/a.b.mp3']) {
    expect(() => sampleFile(filesDir, bad), bad).toThrow(OutsideRootError);
    expect(() => keepSample(filesDir, bad, Buffer.from('x')), bad).toThrow(OutsideRootError);
    removeSample(filesDir, bad);
  }
  expect(fs.readFileSync(precious, 'utf8')).toBe('not yours');
});

it('neither writes nor removes through a samples folder that is a link to another place', () => {
  const filesDir = tempDir();
  const outside = tempDir();
  fs.writeFileSync(path.join(outside, 'kept.mp3'), 'not yours');
  fs.mkdirSync(path.join(filesDir, 'samples'));
  fs.symlinkSync(outside, path.join(filesDir, 'samples', 'stealth'));
  expect(() => keepSample(filesDir, 'samples/stealth/new.mp3', Buffer.from('x'))).toThrow(OutsideRootError);
  removeSample(filesDir, 'samples/stealth/kept.mp3');
  expect(fs.readdirSync(outside)).toEqual(['kept.mp3']);
  // The whole samples folder linked away: the same.
  const other = tempDir();
  fs.symlinkSync(outside, path.join(other, 'samples'));
  expect(() => keepSample(other, 'samples/alt/new.mp3', Buffer.from('x'))).toThrow(OutsideRootError);
});
