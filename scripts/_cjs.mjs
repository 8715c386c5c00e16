import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
const inlined = new Set(['zod', 'commander']);
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies).filter((name) => !inlined.has(name));
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
await build({
  entryPoints: ['dist/src/cli/main.js'],
  outfile: 'dist/cjs/main.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [englishZodLocalesOnly],
  logLevel: 'warning',
});
