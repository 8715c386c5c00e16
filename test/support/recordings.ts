/**
 * The real recordings of the site (`TUBEKIT_RECORDINGS`, e.g. ../shared/platform-recordings; never
 * copied into the project): their response bodies, and the JSON a watch page embeds.
 */
import fs from 'node:fs';
import path from 'node:path';

export const recordingsDir = (): string | undefined => process.env.TUBEKIT_RECORDINGS || undefined;

export const readRecording = (file: string): string => fs.readFileSync(path.join(recordingsDir()!, file), 'utf8');

/** A NewPipe mock's recorded response body, as text. */
export const recordedBody = (file: string): string => (JSON.parse(readRecording(file)) as { response: { responseBody: string } }).response.responseBody;

/** The continuation token a NewPipe mock's request sent. */
export function recordedContinuation(file: string): string {
  const { dataToSend } = (JSON.parse(readRecording(file)) as { request: { dataToSend: number[] } }).request;
  return (JSON.parse(Buffer.from(dataToSend).toString('utf8')) as { continuation: string }).continuation;
}

/** The text of a JSON object a watch page embeds (`ytInitialPlayerResponse = {...};`). */
export function embeddedJsonText(html: string, name: string): string {
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
  throw new Error(`${name} not found in the watch page`);
}
