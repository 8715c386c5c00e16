/**
 * Kept voice samples, under `samples/<provider>/<file id>.<format>` in the files dir (the data
 * dir unless `--files-dir`: a fleet's shared mount, so any server can delete any clone's sample).
 * The file id is ours (never a provider's id), and every path is checked to stay under `samples/`
 * after resolution, links included (contained-path.ts), whatever the database row says.
 * A sample is written inside the transaction that inserts its voice, so a refused clone
 * leaves neither a row nor a file behind.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Provider } from '../../../core/schemas/voices.js';
import { containedPath, OutsideRootError } from '../../contained-path.js';
import type { SampleFormat } from '../../speech/index.js';
import { samplesDir } from '../../paths.js';
import { writeFileAtomic } from '../../store/atomic-file.js';
import type { Settings } from '../../store/settings.js';

/** A sample file's id: ours alone, so nothing a provider answers ever names a file. */
const FILE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A new sample's place, relative to the files dir (so a moved one keeps working), named by an id of ours. */
export function samplePath(filesDir: string, provider: Provider, format: SampleFormat): string {
  return path.relative(filesDir, path.join(samplesDir(filesDir), provider, `${randomBytes(12).toString('base64url')}.${format}`));
}

/** The sample's file, or OutsideRootError for a path that is not a sample's or leaves `samples/` (links included). */
export function sampleFile(filesDir: string, relativePath: string): string {
  const parts = relativePath.split(/[\\/]/);
  const [top, provider, name] = parts;
  const [id, format, ...more] = (name ?? '').split('.');
  if (parts.length !== 3 || top !== path.basename(samplesDir(filesDir)) || !/^[a-z]+$/.test(provider ?? '') || !FILE_ID.test(id ?? '') || !format || more.length > 0) {
    throw new OutsideRootError(relativePath);
  }
  return containedPath(filesDir, path.join(top, provider!, name!));
}

export function keepSample(filesDir: string, relativePath: string, data: Buffer, settings?: Settings): void {
  writeFileAtomic(sampleFile(filesDir, relativePath), data, settings);
}

/** Removes a voice's sample; a path that is not a sample's is left alone (the row goes regardless). */
export function removeSample(filesDir: string, relativePath: string): void {
  let file: string;
  try {
    file = sampleFile(filesDir, relativePath);
  } catch (error) {
    if (error instanceof OutsideRootError) return;
    throw error;
  }
  fs.rmSync(file, { force: true });
}
