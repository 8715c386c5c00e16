/** The files a copied row names: placed whole in the target's files dir, never outside it. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { copyRowFiles } from '../../../../src/engine/store/copy/copy-files.js';
import { tempDataDir } from '../../../support/engines.js';

let from: string;
let to: string;
const counts = () => ({ copied: 0, present: 0, missing: 0 });

beforeEach(() => {
  from = tempDataDir('tubekit-files-from-');
  to = tempDataDir('tubekit-files-to-');
  fs.mkdirSync(path.join(from, 'voices', 'stealth'), { recursive: true });
  fs.writeFileSync(path.join(from, 'voices', 'stealth', 'a.wav'), 'first sample');
});
afterEach(() => {
  fs.rmSync(from, { recursive: true, force: true });
  fs.rmSync(to, { recursive: true, force: true });
});

it('copies a file, keeps one already there byte for byte, replaces one that differs, and counts a missing one', () => {
  const first = counts();
  copyRowFiles(['voices/stealth/a.wav', 'voices/stealth/gone.wav', null], { from, to }, first);
  expect(first).toEqual({ copied: 1, present: 0, missing: 1 });
  expect(fs.readFileSync(path.join(to, 'voices/stealth/a.wav'), 'utf8')).toBe('first sample');
  const again = counts();
  copyRowFiles(['voices/stealth/a.wav'], { from, to }, again);
  expect(again).toEqual({ copied: 0, present: 1, missing: 0 });
  // Same size, other bytes: not the same file.
  fs.writeFileSync(path.join(to, 'voices/stealth/a.wav'), 'other sample');
  const replaced = counts();
  copyRowFiles(['voices/stealth/a.wav'], { from, to }, replaced);
  expect(replaced.copied).toBe(1);
  expect(fs.readFileSync(path.join(to, 'voices/stealth/a.wav'), 'utf8')).toBe('first sample');
  expect((fs.readdirSync(to, { recursive: true }) as string[]).filter((name) => name.endsWith('.part'))).toEqual([]);
});

it('refuses a name that reaches outside the files dir, writing nothing', () => {
  fs.writeFileSync(path.join(path.dirname(from), 'outside.wav'), 'x');
  for (const name of [`../${path.basename(path.dirname(from))}/outside.wav`, '/etc/passwd', '..']) {
    expect(() => copyRowFiles([name], { from, to }, counts()), name).toThrow(/outside the engine's files dir/);
  }
  expect(fs.readdirSync(to)).toEqual([]);
  fs.rmSync(path.join(path.dirname(from), 'outside.wav'), { force: true });
});
