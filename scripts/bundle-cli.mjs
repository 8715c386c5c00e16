// Bundles the compiled CLI (dist/src/cli/main.js) into dist/cli/: far fewer modules to resolve and
// load at start-up. zod and commander are inlined because every run loads them; the other
// dependencies stay external (native addons, wasm data, and packages loaded only on demand).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const inlined = new Set(['zod', 'commander']);
const { dependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(dependencies).filter((name) => !inlined.has(name));

await build({
  entryPoints: ['dist/src/cli/main.js'],
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  // commander is CommonJS: its require() calls of node built-ins need a real require in ESM.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
