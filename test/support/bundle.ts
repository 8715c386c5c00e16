/**
 * The built CLI bundle (dist/cli/tubekit.cjs, by `npm run build`) as esbuild describes it in
 * dist/cli/meta.json: which module imports which, and how. Everything is in one file, but a module
 * reached only through import() runs only when imported, so "what start-up runs" is what the
 * entry reaches through static imports.
 */
import fs from 'node:fs';

interface MetaImport {
  path: string;
  kind: string;
  external?: boolean;
}
interface Meta {
  inputs: Record<string, { imports: MetaImport[] }>;
}

const STATIC_KINDS = new Set(['import-statement', 'require-call']);

let meta: Meta | undefined;

/** Read once per test file: the build does not change while tests run. */
export function bundleMeta(): Meta {
  meta ??= JSON.parse(fs.readFileSync('dist/cli/meta.json', 'utf8')) as Meta;
  return meta;
}

/** The bundled modules (`dist/src/cli/main.js`, `node_modules/zod/…`). */
export function bundledModules(): string[] {
  return Object.keys(bundleMeta().inputs);
}

/** The modules `roots` run: each one and what it imports statically, transitively (not `import()`). */
export function staticallyReached(...roots: string[]): Set<string> {
  const { inputs } = bundleMeta();
  const reached = new Set<string>();
  const visit = (module: string) => {
    if (reached.has(module)) return;
    if (!inputs[module]) throw new Error(`the bundle has no module ${module}`);
    reached.add(module);
    for (const { path, kind, external } of inputs[module].imports) if (!external && STATIC_KINDS.has(kind)) visit(path);
  };
  for (const root of roots) visit(root);
  return reached;
}

/** The packages left out of the bundle that a module imports, by how (`import-statement`, `dynamic-import`). */
export function externalImports(module: string): MetaImport[] {
  return bundleMeta().inputs[module]!.imports.filter((entry) => entry.external);
}
