/** The bundled CLI in dist/cli, as `npm run build` leaves it. */
import fs from 'node:fs';
import path from 'node:path';

export const BUNDLE = path.resolve('dist/cli');

/** Every .js file of the bundle, by name, with its text. */
export function bundleFiles(): Map<string, string> {
  const files = fs.readdirSync(BUNDLE).filter((file) => file.endsWith('.js'));
  return new Map(files.map((file) => [file, fs.readFileSync(path.join(BUNDLE, file), 'utf8')]));
}

/** What every run loads at start-up: main.js and the chunks it imports statically, transitively. */
export function startupFiles(): Map<string, string> {
  const loaded = new Map<string, string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    const text = fs.readFileSync(path.join(BUNDLE, file), 'utf8');
    loaded.set(file, text);
    for (const match of text.matchAll(/(?:from|import)\s*["']\.\/([^"']+)["']/g)) visit(match[1]!);
  };
  visit('main.js');
  return loaded;
}
