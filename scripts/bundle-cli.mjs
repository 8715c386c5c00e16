// Bundles the compiled CLI (<out>/src/cli/main.js) into one CommonJS script, <out>/cli/tubekit.cjs,
// which bin/tubekit.js runs with a V8 code cache (src/launcher/load-bundle.ts). <out> is the build's
// temporary directory, swapped in for dist/ at the end (scripts/build.mjs). Modules the code
// imports with import() stay lazy inside the bundle: they are compiled from the cache but run only
// when imported. zod and commander are inlined because every run uses them; undici (every remote
// command: loading it from node_modules took longer than the command's request) and string-width
// (every terminal table) because they are many small modules; the other dependencies stay external
// (native addons, wasm data, and packages loaded only on demand).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const inlined = new Set(['zod', 'commander', 'string-width', 'undici']);
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

/**
 * The bundle runs as a vm.Script, where a native import() would need vm's experimental loader hook,
 * and that hook is lost when the script comes from the code cache. So import() of a package (jq-wasm,
 * ora, conf, prompts, eSpeak) calls the launcher's importer instead, handed in as `importPackage`
 * (src/launcher/load-bundle.ts), which imports it natively from the package's own node_modules.
 */
const packageImportsThroughLauncher = (compiledSource) => ({
  name: 'package-imports-through-launcher',
  setup(bundle) {
    bundle.onLoad({ filter: /\.js$/ }, async (args) =>
      args.path.startsWith(compiledSource)
        ? { contents: (await readFile(args.path, 'utf8')).replace(/\bimport\((['"])([^.'"][^'"]*)\1\)/g, 'importPackage($1$2$1)'), loader: 'js' }
        : undefined,
    );
  },
});

/** The directory the build writes to: tsc's output, where the bundle goes too (dist unless named). */
const out = process.argv[2] ?? 'dist';
const bundleFile = path.join(out, 'cli', 'tubekit.cjs');

const { metafile } = await build({
  entryPoints: [path.join(out, 'src', 'cli', 'main.js')],
  outfile: bundleFile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  // The few modules that find files beside themselves keep doing so from the bundle's place.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [englishZodLocalesOnly, packageImportsThroughLauncher(path.resolve(out, 'src') + path.sep)],
  metafile: true,
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
// A native import() left in the bundle would fail at run time (see packageImportsThroughLauncher).
if (/\bimport\(/.test(readFileSync(bundleFile, 'latin1'))) {
  throw new Error(`${bundleFile} has a native import(): import packages by a literal name so the build can route them through the launcher`);
}
// Which module imports which, and how: tests read it to check what start-up runs (test/support/bundle.ts).
// Paths are written as they will be once the build is dist/.
const relativeOut = path.relative('.', out).split(path.sep).join('/');
writeFileSync(path.join(out, 'cli', 'meta.json'), JSON.stringify(metafile).replaceAll(`"${relativeOut}/`, '"dist/'));

// A first run writes the code cache beside the bundle; a local read exercises what most commands use.
// It runs the launcher of this build on this build's bundle, as bin/tubekit.js will once it is dist/
// (the cache is keyed by the bundle's content, not its place). Only an optimisation: should it
// fail, the first real run writes the cache instead.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tubekit-build-'));
const launcher = pathToFileURL(path.resolve(out, 'src', 'launcher', 'load-bundle.js')).href;
const warmUp = `const { loadBundle } = await import(${JSON.stringify(launcher)});
process.exitCode = await loadBundle(${JSON.stringify(path.resolve(bundleFile))}).main([process.argv[0], 'tubekit', 'folders', 'list', '--json']);`;
try {
  execFileSync(process.execPath, ['--input-type=module', '-e', warmUp], {
    env: { ...process.env, TUBEKIT_DATA_DIR: dataDir, TUBEKIT_CONFIG_DIR: path.join(dataDir, 'config'), TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
} catch (error) {
  console.warn(`bundle-cli: could not write the code cache now (${String(error.stderr || error.message).trim()}); the first run will.`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
