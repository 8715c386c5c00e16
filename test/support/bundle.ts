/** The built CLI bundle (dist/cli, by `npm run build`): which chunks loading one loads, and where a module went. */
import fs from 'node:fs';
import path from 'node:path';

const BUNDLE = path.resolve('dist/cli');

export function chunkText(file: string): string {
  return fs.readFileSync(path.join(BUNDLE, file), 'utf8');
}

export function chunks(): string[] {
  return fs.readdirSync(BUNDLE).filter((file) => file.endsWith('.js'));
}

/** The compiled source modules in a chunk, as esbuild names them in a comment before each (`src/engine/engine.js`). */
export function modulesIn(file: string): string[] {
  return [...chunkText(file).matchAll(/^\/\/ dist\/(src\/\S+\.js)$/gm)].map((match) => match[1]!);
}

/** The chunk holding a compiled source module (`src/engine/local-service.js`). */
export function chunkOf(module: string): string {
  const found = chunks().find((file) => modulesIn(file).includes(module));
  if (!found) throw new Error(`no chunk of dist/cli holds ${module}`);
  return found;
}

/** The chunks loading `roots` loads: each one and what it imports statically, transitively (not `import()`). */
export function staticallyLoaded(...roots: string[]): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const match of chunkText(file).matchAll(/(?:from|import)\s*["']\.\/([^"']+)["']/g)) visit(match[1]!);
  };
  for (const root of roots) visit(root);
  return loaded;
}
