/**
 * Loads the bundled CLI (dist/cli/tubekit.cjs, one CommonJS script) with a V8 code cache beside it.
 * Compiling the bundle from source was about a third of a short command's start-up; Node 22 can
 * cache that (`module.enableCompileCache`), Node 20 cannot for modules, so the launcher compiles
 * the bundle as a vm.Script and keeps its cache itself.
 *
 * V8 checks a cache against the source's length only, so the cache file starts with a SHA-1 of the
 * bundle it was made from and a cache never meets another bundle. A missing or rejected cache (a new
 * build, another Node version) is written again when the process exits, if the directory lets us.
 * This module imports only node built-ins: it runs before anything else of tubekit.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** What the bundle exports (src/cli/main.ts). */
export interface CliBundle {
  main(argv: string[]): Promise<number>;
}

const DIGEST_BYTES = 20;

export function loadBundle(file: string, cacheFile = `${file}.cache`): CliBundle {
  const source = fs.readFileSync(file);
  const digest = createHash('sha1').update(source).digest();
  const cachedData = readCache(cacheFile, digest);
  // esbuild writes ASCII, which decodes without a UTF-8 pass.
  const text = isAscii(source) ? source.toString('latin1') : source.toString('utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, importPackage) {${text}\n})`, { filename: file, cachedData });
  // Written at exit, so the cache holds the functions this run compiled too, not only the top level.
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => writeCache(cacheFile, digest, script));
  const module = { exports: {} as CliBundle };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file), importPackage);
  return module.exports;
}

/**
 * import() for the bundle: the build points its import() of packages here (scripts/bundle-cli.mjs),
 * because a vm.Script made from a code cache cannot import natively. This module lives in the same
 * package, so a package resolves from here as it would from the bundle.
 */
const importPackage = (specifier: string): Promise<unknown> => import(specifier);

function readCache(cacheFile: string, digest: Buffer): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return cache.subarray(0, DIGEST_BYTES).equals(digest) ? cache.subarray(DIGEST_BYTES) : undefined;
}

/** Best effort: an install the user cannot write to simply runs without a cache. */
function writeCache(cacheFile: string, digest: Buffer, script: vm.Script): void {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    // Fails fast where the directory is read-only, before the cost of serialising the cache.
    const handle = fs.openSync(temporary, 'w', 0o644);
    try {
      fs.writeSync(handle, digest);
      fs.writeSync(handle, script.createCachedData());
    } finally {
      fs.closeSync(handle);
    }
    // Whole or not at all: another process may be reading the cache right now.
    fs.renameSync(temporary, cacheFile);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}
