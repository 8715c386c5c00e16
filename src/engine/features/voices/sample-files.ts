/**
 * Kept voice samples, under `samples/<provider>/<voice_id>.<format>` in the files dir (the data
 * dir unless `--files-dir`: a fleet's shared mount, so any server can delete any clone's sample).
 * A sample is written inside the transaction that inserts its voice, so a refused clone
 * leaves neither a row nor a file behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Provider } from '../../../core/schemas/voices.js';
import type { SampleFormat } from '../../speech/index.js';
import { samplesDir } from '../../paths.js';
import { writeFileAtomic } from '../../store/atomic-file.js';
import type { Settings } from '../../store/settings.js';

/** Relative to the files dir, so a moved one keeps working. */
export function samplePath(filesDir: string, provider: Provider, voiceId: string, format: SampleFormat): string {
  return path.relative(filesDir, path.join(samplesDir(filesDir), provider, `${voiceId}.${format}`));
}

export function keepSample(filesDir: string, relativePath: string, data: Buffer, settings?: Settings): void {
  writeFileAtomic(path.join(filesDir, relativePath), data, settings);
}

export function removeSample(filesDir: string, relativePath: string): void {
  fs.rmSync(path.join(filesDir, relativePath), { force: true });
}
