/**
 * The eSpeak NG data Piper voices phonemize with: the same files the offline synthesizer uses,
 * taken from the emscripten package's `espeak-ng.data` (a concatenation whose file list is in
 * `espeak-ng.js`) and written once as the `espeak-ng-data` directory sherpa-onnx reads. It lives
 * in the user's cache, not a data dir: sherpa-onnx sets eSpeak up once per process, from the
 * first directory it is given, so that directory must outlive any one engine.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const PACKAGE_SCRIPT = '@echogarden/espeak-ng-emscripten/espeak-ng.js';
const ENTRY = /\{filename:"\/usr\/share\/espeak-ng-data\/([^"]+)",start:(\d+),end:(\d+)\}/g;
/** Written last: a directory without it is an interrupted extraction, made again. */
const COMPLETE = '.complete';

/** The cache directory for this copy of the data (named by its size, so an update gets its own). */
function cacheDir(script: string): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const { size } = fs.statSync(path.join(path.dirname(script), 'espeak-ng.data'));
  return path.join(base, 'tubekit', `espeak-ng-${size}`);
}

/** The `espeak-ng-data` directory, extracted on first use. */
export function espeakDataDir(): string {
  const script = createRequire(import.meta.url).resolve(PACKAGE_SCRIPT);
  const dir = path.join(cacheDir(script), 'espeak-ng-data');
  if (fs.existsSync(path.join(dir, COMPLETE))) return dir;
  const data = fs.readFileSync(path.join(path.dirname(script), 'espeak-ng.data'));
  const listing = fs.readFileSync(script, 'utf8');
  const partial = `${dir}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  let files = 0;
  for (const [, name, start, end] of listing.matchAll(ENTRY)) {
    const file = path.join(partial, name!);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data.subarray(Number(start), Number(end)));
    files += 1;
  }
  if (files === 0) throw new Error(`no eSpeak NG data files are listed in ${script}`);
  fs.writeFileSync(path.join(partial, COMPLETE), String(files));
  try {
    fs.renameSync(partial, dir);
  } catch (error) {
    // Another process extracted it first: theirs is as good.
    fs.rmSync(partial, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, COMPLETE))) throw error;
  }
  return dir;
}
