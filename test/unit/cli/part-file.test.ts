/** Parts (`.<name>.<pid>.part`) of runs that no longer run are removed by the next save into their folder. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimPartFile, releasePartFile } from '../../../src/cli/part-file.js';
import { tempDataDir } from '../../support/engines.js';
import { deadPid } from '../../support/processes.js';

describe('part files', () => {
  let folder: string;
  beforeEach(() => {
    folder = tempDataDir('tubekit-parts-');
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  const leave = (name: string) => fs.writeFileSync(path.join(folder, name), 'half a file');

  it('names the part after the target and this process, and removes the parts of dead runs', () => {
    const dead = deadPid();
    leave(`.clip.mp4.${dead}.part`);
    leave(`.other.mp3.${dead}.part`);
    leave(`.clip.mp4.${process.ppid}.part`); // a run still going
    leave(`.clip.mp4.${process.pid}.part`); // a dead namesake of this process
    leave('clip.mp4.part'); // not ours: no pid
    leave('.notes.txt');
    const part = claimPartFile(path.join(folder, 'song.mp3'));
    expect(part).toBe(path.join(folder, `.song.mp3.${process.pid}.part`));
    expect(fs.readdirSync(folder).sort()).toEqual(['.clip.mp4.' + process.ppid + '.part', '.notes.txt', 'clip.mp4.part'].sort());
    releasePartFile(part);
  });

  it('leaves the parts this process is still writing', () => {
    const first = claimPartFile(path.join(folder, 'a.mp4'));
    fs.writeFileSync(first, 'writing');
    const second = claimPartFile(path.join(folder, 'b.mp4'));
    expect(fs.existsSync(first)).toBe(true);
    releasePartFile(first);
    releasePartFile(second);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});
