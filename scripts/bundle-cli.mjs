// Bundles the compiled CLI (dist/src/cli/main.js) into dist/cli/: far fewer modules to resolve and
// load at start-up. zod and commander are inlined because every run loads them; the other
// dependencies stay external (native addons, wasm data, and packages loaded only on demand).
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const inlined = new Set(['zod', 'commander']);
const { dependencies } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(dependencies).filter((name) => !inlined.has(name));

/**
 * zod re-exports its 60-odd message locales as `z.locales`; tubekit speaks English only and never
 * reads them, yet inlined they are about 300 KB that every run would parse. Only English is kept
 * (zod configures it itself at start-up).
 */
const englishZodLocalesOnly = {
  name: 'english-zod-locales-only',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`) ? { path: 'zod-locales', namespace: 'zod-locales' } : undefined,
    );
    bundle.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
    }));
  },
};

// Chunk names change with their contents: clear the last build's so dist/cli holds one build.
rmSync('dist/cli', { recursive: true, force: true });

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
  plugins: [englishZodLocalesOnly],
  logLevel: 'warning',
});
