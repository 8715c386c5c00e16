/** What the replay scripts share: reading the recorded responses of the video site. */
import fs from 'node:fs';
import path from 'node:path';

/** The recordings' directory: the first argument, else TUBEKIT_RECORDINGS. */
const given = process.argv[2] ?? process.env.TUBEKIT_RECORDINGS;
if (!given) {
  console.error('Give the recordings directory: node scripts/<script>.mjs <dir> (or set TUBEKIT_RECORDINGS).');
  process.exit(2);
}
export const recordingsDir = path.resolve(given);

/** A recorded exchange's response body, as text. */
export const recordedBody = (file) => JSON.parse(fs.readFileSync(path.join(recordingsDir, file), 'utf8')).response.responseBody;

/** The text of a JSON object a watch page embeds (`ytInitialPlayerResponse = {...};`). */
export function embeddedJsonText(html, name) {
  const start = html.indexOf(`${name} = `) + name.length + 3;
  let depth = 0;
  let inString = false;
  for (let i = start; i < html.length; i++) {
    const ch = html[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return html.slice(start, i + 1);
  }
  throw new Error(`${name} not found`);
}
