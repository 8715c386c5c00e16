/** ffmpeg meeting a full disk is the disk-full condition (507), and says nothing of the scratch paths it was writing. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { toServiceError } from '../../../src/server/error-mapping.js';
import { runFfmpeg } from '../../../src/engine/media/ffmpeg.js';
import { isDiskFull } from '../../../src/engine/store/disk-space.js';

afterEach(() => vi.unstubAllEnvs());

it('turns ffmpeg’s "No space left on device" into the disk-full error, without its paths', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-ffmpeg-'));
  const fake = path.join(dir, 'ffmpeg');
  fs.writeFileSync(fake, `#!/bin/sh\necho "[out#0/mp3 @ 0x1] Error writing trailer of ${dir}/scratch/render-1/out.mp3: No space left on device" >&2\nexit 1\n`, { mode: 0o755 });
  vi.stubEnv('FFMPEG_PATH', fake);
  const error = await runFfmpeg(['-i', 'x', 'y.mp3']).then(() => undefined, (thrown: unknown) => thrown);
  expect(isDiskFull(error)).toBe(true);
  expect((error as Error).message).not.toContain(dir);
  expect(toServiceError(error as never).toBody()).toMatchObject({ code: 'insufficient_storage' });
  fs.rmSync(dir, { recursive: true, force: true });
});
