/**
 * Kept voice samples, under `samples/<provider>/<voice_id>.<format>` in the data dir.
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

/** Relative to the data dir, so a moved data dir keeps working. */
export function samplePath(dataDir: string, provider: Provider, voiceId: string, format: SampleFormat): string {
  return path.relative(dataDir, path.join(samplesDir(dataDir), provider, `${voiceId}.${format}`));
}

export function keepSample(dataDir: string, relativePath: string, data: Buffer, settings?: Settings): void {
  writeFileAtomic(path.join(dataDir, relativePath), data, settings);
}

export function removeSample(dataDir: string, relativePath: string): void {
  fs.rmSync(path.join(dataDir, relativePath), { force: true });
}
