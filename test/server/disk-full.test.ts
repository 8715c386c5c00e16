/**
 * A full disk under `serve`: a write that meets it answers 507 `insufficient_storage` saying the
 * disk is full, leaves no file (not even a temporary one) and no row behind, and reads go on.
 * The disk is filled by the `disk-full` fault, which fails writes where a real full disk would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { cdnDir, samplesDir } from '../../src/engine/paths.js';
import { toServiceError } from '../../src/server/error-mapping.js';
import { filesUnder, wavSample } from '../support/audio-fixtures.js';
import { createHarness, type EngineHarness } from '../support/engines.js';

describe('serve: a full disk', () => {
  let harness: EngineHarness;
  let close: () => Promise<void>;
  let key: string;
  let videoUrl: string;
  beforeAll(async () => {
    ({ harness, close } = await createHarness('remote', { world: { seed: 1, channels: 200 } }));
    key = (await harness.engine.identity.createUserWithKey('ultimate', ['generations'])).key;
    const world = await harness.engine.platform();
    const video = world.sampleChannels(200).flatMap((channel) => world.channelVideos(channel)).find((candidate) => candidate.kind !== 'upcoming' && world.transcript(candidate.video_id))!;
    videoUrl = `https://youtu.be/${video.video_id}`;
  });
  afterAll(() => close());

  const auth = () => ({ authorization: `Bearer ${key}` });
  const clone = () => {
    const form = new FormData();
    form.append('displayName', 'Full disk');
    form.append('audioFile', new Blob([wavSample(12)], { type: 'audio/wav' }), 'me.wav');
    return fetch(`${harness.baseUrl}/api/voices/clone`, { method: 'POST', headers: auth(), body: form });
  };
  const download = () =>
    fetch(`${harness.baseUrl}/api/download-video`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ video_url: videoUrl, format: 'subtitles' }),
    });
  const count = (sql: string) => (harness.engine.db.prepare(sql).get() as { n: number }).n;

  it('answers 507 saying the disk is full, keeps nothing half-written, and keeps serving reads', async () => {
    await setFault(harness.engine.settings, 'disk-full');
    try {
      for (const response of [await clone(), await download()]) {
        expect(response.status).toBe(507);
        expect(await response.json()).toMatchObject({ success: false, code: 'insufficient_storage', error: expect.stringMatching(/disk .* is full, so nothing was saved/) });
      }
      expect(filesUnder(samplesDir(harness.engine.dataDir))).toEqual([]);
      expect(filesUnder(path.join(cdnDir(harness.engine.dataDir), 'downloads'))).toEqual([]);
      expect(count('SELECT COUNT(*) AS n FROM voices')).toBe(0);
      expect(count(`SELECT COUNT(*) AS n FROM download_files WHERE state = 'ready'`)).toBe(0);
      expect(count('SELECT COUNT(*) AS n FROM download_slots')).toBe(0);
      const reads = await fetch(`${harness.baseUrl}/api/voices/stealth`, { headers: auth() });
      expect(reads.status).toBe(200);
    } finally {
      await clearFault(harness.engine.settings, 'disk-full');
    }
    // Space again: the same requests succeed.
    expect((await clone()).status).toBe(200);
    expect((await download()).status).toBe(200);
    expect(count('SELECT COUNT(*) AS n FROM voices')).toBe(1);
  });

  it('maps every shape of a full disk to 507: ENOSPC, EDQUOT, and the database\'s SQLITE_FULL', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL']) {
      const failure = toServiceError(Object.assign(new Error('no room'), { code }) as never);
      expect(failure.status).toBe(507);
      expect(failure.code).toBe('insufficient_storage');
    }
    expect(toServiceError(Object.assign(new Error('other'), { code: 'EIO' }) as never).status).toBe(500);
  });
});
