// `npm run build`: compiles (tsc) and bundles (scripts/bundle-cli.mjs) into a temporary directory
// beside dist/, then swaps it in (scripts/replace-directory.mjs). A failed build leaves dist/ as it was.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { replaceDirectory } from './replace-directory.mjs';

const next = `dist.next-${process.pid}`;
/** Whether the build of that pid still runs. */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}
// Leftovers of builds that were killed midway.
for (const entry of readdirSync('.')) {
  const pid = /^dist\.(?:next|old)-(\d+)$/.exec(entry)?.[1];
  if (pid && !running(Number(pid))) rmSync(entry, { recursive: true, force: true });
}

const run = (script, args) => execFileSync(process.execPath, [script, ...args], { stdio: 'inherit' });
try {
  run(createRequire(import.meta.url).resolve('typescript/bin/tsc'), ['-p', 'tsconfig.json', '--outDir', next]);
  run('scripts/bundle-cli.mjs', [next]);
  replaceDirectory(next, 'dist');
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  process.exitCode = typeof error.status === 'number' ? error.status : 1;
  if (typeof error.status !== 'number') console.error(error);
}
