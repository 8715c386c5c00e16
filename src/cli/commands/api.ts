/**
 * `tubekit api <method> <path>`, as `gh api`: any endpoint with the key, base URL, encoding and
 * error handling done for the user. A path of the route table is sent through the Service like
 * every command (so it works on the embedded engine without serve, JSON, query or multipart as the
 * route says); in remote mode any other path goes to the service as it is.
 */
import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { usageError } from '../../core/client-errors.js';
import { readUpload, readUserFile } from '../files.js';
import { withExamples } from '../help.js';
import { printJson } from '../output.js';
import { clip } from '../../core/echo-text.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** The contract `serve` publishes beside the route table; the embedded engine answers it too, from the same table. */
const OPENAPI_PATH = '/api/openapi.json';

interface ApiOptions {
  field: string[];
  rawField: string[];
  header: string[];
  input?: string;
  paginate?: boolean;
}

/** Headers the request's own framing sets: a replacement would break the request. */
const FRAMING_HEADERS = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'upgrade', 'expect', 'te', 'keep-alive']);

/** `-H 'Name: value'` lines as a header record, or a usage error naming the bad one. */
function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const match = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*?)\s*$/.exec(line);
    // Never echoed: the line may be a credential.
    if (!match) throw usageError('-H takes "Name: value" (a header name, a colon, its value); one -H was not.', "For example: -H 'Accept-Language: de'");
    const [, name, value] = match as unknown as [string, string, string];
    if (/[\r\n\0]/.test(value)) throw usageError(`-H ${name}: the value must be one line.`);
    if (FRAMING_HEADERS.has(name.toLowerCase())) throw usageError(`-H ${name}: tubekit sets this header itself (it frames the request).`, 'Choose the body with -f/-F/--input; the route decides its encoding.');
    headers[name] = value;
  }
  return headers;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** `name=value`, or a usage error naming the flag. */
function splitField(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw usageError(`${flag} takes name=value, not "${clip(text)}".`, `For example: ${flag} name=Cooking`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/**
 * `-F` values as gh types them: true, false, null, numbers and JSON arrays or objects become those;
 * `@file` is the file (an upload where the route is multipart, else its text; `@-` is stdin).
 */
async function typedValue(app: CliApp, name: string, value: string, multipart: boolean): Promise<unknown> {
  if (value.startsWith('@')) {
    const file = value.slice(1);
    if (file === '-') return (await app.io.readStdin()).replace(/\r?\n$/, '');
    return multipart ? readUpload(file, `file for ${name}`) : readUserFile(file, `file for ${name}`).toString('utf8').replace(/\r?\n$/, '');
  }
  if (value === 'true' || value === 'false') return value === 'true';
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (/^[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      throw usageError(`-F ${name}: the value looks like JSON but is not valid JSON.`, 'Quote it for the shell, or pass it as text with -f.');
    }
  }
  return value;
}

/** The body given with --input (a file, or - for stdin): a JSON object whose fields join the others. */
async function inputFields(app: CliApp, input: string): Promise<Record<string, unknown>> {
  const text = input === '-' ? await app.io.readStdin() : readUserFile(input, '--input file').toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw usageError(`--input ${input === '-' ? '(stdin)' : clip(input)} is not valid JSON.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw usageError('--input must hold a JSON object: its fields are the request\'s.');
  return parsed as Record<string, unknown>;
}

/** `folders` and `/api/folders` both mean the service's /api/folders; a query string becomes fields. */
function splitPath(text: string): { path: string; query: Record<string, string> } {
  const [rawPath, queryText = ''] = text.trim().split(/\?(.*)/s, 2) as [string, string?];
  const path = rawPath.startsWith('/') ? rawPath : rawPath.startsWith('api/') ? `/${rawPath}` : `/api/${rawPath}`;
  return { path, query: Object.fromEntries(new URLSearchParams(queryText)) };
}

export function registerApi(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('api <method> <path>')
      .description('Call any endpoint of the service, as gh api does: the key, base URL, encoding and errors are handled; prints the response body')
      .option('-f, --raw-field <name=value>', 'a string field (repeat for more)', collect, [])
      .option('-F, --field <name=value>', 'a typed field: true, false, null, numbers and JSON as such; @file reads a file (an upload on multipart routes), @- stdin', collect, [])
      .option('--input <file>', 'the request body from a JSON file (- for stdin); -f and -F fields are added to it')
      .option('-H, --header <name: value>', 'an extra HTTP request header (repeat for more; remote only)', collect, [])
      .option('--paginate', 'follow the pages of a listing (page/per_page): prints each page\'s body, one JSON value per page')
      .addHelpText(
        'after',
        '\nPaths of the route table work on both engines (no serve needed), encoded as the route says (JSON, query or multipart);\nin remote mode any other path is sent as it is (query fields for GET and DELETE, a JSON body otherwise).',
      ),
    [
      'tubekit api GET /api/folders',
      'tubekit api POST /api/folders -f name=Cooking',
      'tubekit api GET folders --jq \'.folders[].name\'',
      'tubekit api POST /api/saved-channels -F folder_id=1 -F \'channel_ids=["UC-G4LyTAzHi0Xaj33Fjszrg"]\'',
      'tubekit api GET "/api/process-channel/1?wait_seconds=5"',
      'echo \'{"input": "@goldenpiano"}\' | tubekit api POST /api/channels/resolve --input -',
      'tubekit api GET "/api/terminated-channels?q=music&per_page=50" --paginate --jq \'.channels[].channel_id\'',
      'tubekit api GET /api/collabs/feed --paginate | jq -s \'map(.videos) | add | length\'   # one body per page',
      'tubekit --base-url https://example.com api GET /api/folders -H \'Accept-Language: de\'',
    ],
  ).action(async (methodText: string, pathText: string, options: ApiOptions) => {
    const method = methodText.toUpperCase();
    if (!METHODS.includes(method)) throw usageError(`The method must be one of ${METHODS.join(', ')}, not "${clip(methodText)}".`);
    const { path, query } = splitPath(pathText);
    // The route table (every schema) loads only for this command, not at every start-up.
    const [{ routes }, { matchRoute }] = await Promise.all([import('../../core/routes.js'), import('../../core/route-match.js')]);
    const match = matchRoute(method, path);
    const multipart = match !== undefined && routes[match.name].encoding === 'multipart';
    const fields: Record<string, unknown> = { ...query };
    if (options.input !== undefined) Object.assign(fields, await inputFields(app, options.input));
    for (const text of options.rawField) {
      const [name, value] = splitField(text, '-f');
      fields[name] = value;
    }
    for (const text of options.field) {
      const [name, value] = splitField(text, '-F');
      fields[name] = await typedValue(app, name, value, multipart || (match === undefined && method !== 'GET' && method !== 'DELETE'));
    }
    const headers = parseHeaders(options.header);
    if (options.header.length > 0 && app.settings.mode === 'local') {
      throw usageError('-H sends HTTP headers, and the embedded engine is not reached over HTTP.', 'Call a service with --base-url (or `tubekit serve` and its URL).');
    }
    const service = await app.service();
    const callOptions = options.header.length > 0 ? { headers } : {};
    const send = async (sent: Record<string, unknown>) =>
      match
        ? service.call(match.name, { ...sent, ...match.params } as never, callOptions)
        : method === 'GET' && path === OPENAPI_PATH && service.target.mode === 'local'
          ? (await import('../../server/openapi.js')).openApiDocument()
          : service.callPath({ method, path, encoding: method === 'GET' || method === 'DELETE' ? 'query' : hasUpload(sent) ? 'multipart' : 'json', fields: sent }, callOptions);
    if (!options.paginate) {
      printJson(app.io, await send(fields));
      return;
    }
    if (method !== 'GET') throw usageError('--paginate follows the pages of a listing: use it with GET.');
    const firstPage = fields.page === undefined ? 1 : Number(fields.page);
    if (!Number.isInteger(firstPage) || firstPage < 1) throw usageError(`page must be a whole number of at least 1 with --paginate, not "${clip(String(fields.page))}".`);
    const { followPages } = await import('../api-pages.js');
    await followPages((page) => send({ ...fields, page }), firstPage, (body) => printJson(app.io, body), (text) => app.io.note(text));
  });
}

const hasUpload = (fields: Record<string, unknown>) =>
  Object.values(fields).some((value) => typeof value === 'object' && value !== null && Buffer.isBuffer((value as { data?: unknown }).data));
