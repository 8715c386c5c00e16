/**
 * The minimum rate for media transfers: a stream from the site (here a fixture server on 127.0.0.1)
 * that trickles below it stops the download with a 502 naming the rate, instead of holding the
 * download and its slot for as long as it trickles; one at a healthy rate is untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NETWORK, networkSettingsFromEnv } from '../../../src/engine/platform/live/network-options.js';
import { LiveMedia } from '../../../src/engine/platform/live/media/live-media.js';
import { tempDataDir } from '../../support/engines.js';
import { hasYtdlp } from '../../support/live-media.js';
import { startMediaFixtureServer, type MediaFixtureServer } from '../../support/media-fixture-server.js';

let server: MediaFixtureServer;
let dataDir: string;
beforeAll(async () => {
  server = await startMediaFixtureServer();
  server.add({ id: 'trickle0001', formats: ['h264-360', 'aac'] });
  dataDir = tempDataDir();
}, 300_000);
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function download(minRate: { bytesPerSecond: number; windowMs: number }) {
  const media = new LiveMedia({ ...DEFAULT_NETWORK, origin: server.origin, mediaMinRate: minRate }, dataDir);
  const description = await media.describe('trickle0001');
  const section = { start: 0, duration: description.duration_seconds };
  const choice = media.choose(description, { format: 'audio', height: null, section });
  const workDir = fs.mkdtempSync(path.join(dataDir, 'work-'));
  return media.fetch(description, choice, section, path.join(workDir, 'out.mp3'), { workDir });
}

describe.runIf(hasYtdlp)('the minimum rate of a media transfer', () => {
  it('stops a stream trickling below it with a 502 that names the rate', async () => {
    server.throttle(1_000);
    const started = Date.now();
    const error = await download({ bytesPerSecond: 64 * 1024, windowMs: 2_000 }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    server.throttle(0);
    expect(error).toMatchObject({ status: 502, code: 'upstream_error' });
    expect((error as Error).message).toMatch(/^The media of trickle0001 arrived at [\d.]+ KB\/s over the last 2 s, below the minimum of 64 KB\/s for media transfers; the download was stopped\.$/);
    // Stopped after about one window, not after the whole trickle (minutes at this rate).
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 120_000);

  it('leaves a transfer at a healthy rate alone', async () => {
    server.throttle(0);
    const fetched = await download({ bytesPerSecond: 64 * 1024, windowMs: 2_000 });
    expect(fetched.size_bytes).toBeGreaterThan(0);
  }, 120_000);

  it('is set by TUBEKIT_MEDIA_MIN_RATE and TUBEKIT_MEDIA_RATE_WINDOW, which refuse what is not a rate', () => {
    expect(networkSettingsFromEnv({}).mediaMinRate).toEqual({ bytesPerSecond: 8192, windowMs: 30_000 });
    expect(networkSettingsFromEnv({ TUBEKIT_MEDIA_MIN_RATE: '0', TUBEKIT_MEDIA_RATE_WINDOW: '5' }).mediaMinRate).toEqual({ bytesPerSecond: 0, windowMs: 5_000 });
    expect(() => networkSettingsFromEnv({ TUBEKIT_MEDIA_MIN_RATE: 'fast' })).toThrow(/TUBEKIT_MEDIA_MIN_RATE: "fast" is not a rate/);
    expect(() => networkSettingsFromEnv({ TUBEKIT_MEDIA_RATE_WINDOW: '0' })).toThrow(/TUBEKIT_MEDIA_RATE_WINDOW: "0" is not a window/);
  });
});
