/**
 * Files across the MCP boundary. In: a multipart file field of a route takes a `data:` URL (the
 * file inline), a public http(s) URL read through the bounded public-hosts-only fetcher the live
 * checks use (https only over HTTP), or, over stdio only, a path to a regular file on this machine,
 * its size checked before it is read. Out: the files an answer points to (audio, downloads,
 * transcripts) become resource links with their URL, type and size, and a small text file (an
 * SRT) is also put inline, so an agent can read it without fetching anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UploadedFile } from '../core/schemas/params.js';
import type { Service } from '../core/service.js';
import type { PublicFetcher } from '../engine/platform/factory/public-fetcher.js';
import { usageError } from '../core/client-errors.js';
import { clip } from '../core/echo-text.js';

/** Text files up to this size are inlined beside their link. */
export const INLINE_TEXT_MAX_BYTES = 256 * 1024;

export interface FileArgumentContext {
  /** Paths on disk are read only over stdio (the user's own machine); over HTTP the caller is anyone with the key. */
  transport: 'stdio' | 'http';
  /** The public-hosts-only fetcher (made on first use). */
  fetchPublic: () => Promise<PublicFetcher>;
  signal?: AbortSignal;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The upload a file argument names. Reads at most one byte past the route's limit from a URL or
 * a data: URL, so an oversized file is refused by the route itself, with its own message. Anything
 * but a string is left for the route to refuse.
 */
export async function readFileArgument(value: unknown, maxBytes: number, context: FileArgumentContext): Promise<unknown> {
  if (typeof value !== 'string' || value.trim() === '') return value === '' ? undefined : value;
  if (/^data:/i.test(value)) return inlineUpload(value, maxBytes + 1);
  if (/^https?:\/\//i.test(value)) return fetchUpload(value, maxBytes + 1, context);
  if (context.transport !== 'stdio') {
    throw usageError(
      `A path on disk is read only over stdio; this server is reached over HTTP.`,
      'Give the file inline as a data: URL (data:audio/wav;base64,…) or as a public https URL.',
    );
  }
  return readLocalUpload(value.startsWith('file:') ? fileURLToPath(value) : value, maxBytes);
}

/** A `data:[type][;base64],…` URL as an upload, decoding at most `limit` bytes. */
function inlineUpload(url: string, limit: number): UploadedFile {
  const comma = url.indexOf(',');
  if (comma < 0) throw usageError('The data: URL has no comma before its content.', 'Write it as data:audio/wav;base64,<base64 of the file>.');
  const meta = url.slice(5, comma);
  const base64 = /;base64$/i.test(meta);
  const contentType = meta.replace(/;base64$/i, '').split(';')[0] || 'application/octet-stream';
  const payload = url.slice(comma + 1);
  // Only as much as the limit needs is decoded: four base64 characters make three bytes.
  let data: Buffer;
  try {
    data = base64 ? Buffer.from(payload.slice(0, Math.ceil(limit / 3) * 4), 'base64') : Buffer.from(decodeURIComponent(payload.slice(0, limit * 3)));
  } catch {
    throw usageError('The data: URL has a broken %-escape in its content.', 'Write it as data:audio/wav;base64,<base64 of the file>.');
  }
  return { filename: 'upload', contentType, data: data.subarray(0, limit) };
}

async function fetchUpload(url: string, limit: number, context: FileArgumentContext): Promise<UploadedFile> {
  const fetchPublic = await context.fetchPublic();
  const page = await fetchPublic(url, { maxBytes: limit, signal: context.signal, httpsOnly: context.transport === 'http' });
  const advice = context.transport === 'http' ? 'Give a public https URL, or the file inline as a data: URL.' : 'Give a public http(s) URL, or a path on disk.';
  if (!page.ok) throw usageError(`Cannot fetch ${clip(url)}: ${page.reason}.`, advice);
  if (page.status < 200 || page.status >= 300) throw usageError(`Cannot fetch ${clip(url)}: the server answered ${page.status}.`, advice);
  const name = decodeURIComponent(new URL(page.url).pathname.split('/').pop() || 'upload');
  return { filename: name, contentType: page.content_type || 'application/octet-stream', data: page.data };
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * A regular file on disk, opened without blocking (a named pipe never stalls the server) and
 * checked by its size before an asynchronous read of exactly that size.
 */
async function readLocalUpload(file: string, maxBytes: number): Promise<UploadedFile> {
  const fail = (reason: string) => usageError(`Cannot read the file ${clip(file)}: ${reason}.`);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw fail(REASONS[(error as NodeJS.ErrnoException).code ?? ''] ?? 'it cannot be opened');
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw fail('not a regular file');
    if (stat.size > maxBytes) throw fail(`it is ${megabytes(stat.size)}, over the ${megabytes(maxBytes)} limit`);
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < data.length) {
      const { bytesRead } = await handle.read(data, read, data.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { filename: path.basename(file), contentType: CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', data: data.subarray(0, read) };
  } finally {
    await handle.close();
  }
}

/** Declared types are a courtesy: the service judges an upload's format by its content. */
const CONTENT_TYPES: Record<string, string> = { '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.m4a': 'audio/mp4', '.ogg': 'audio/ogg', '.webm': 'audio/webm' };

const MIME_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.srt': 'application/x-subrip',
  '.vtt': 'text/vtt',
  '.txt': 'text/plain',
  '.json': 'application/json',
};
const TEXT_TYPES = new Set(['application/x-subrip', 'text/vtt', 'text/plain', 'application/json']);

/** The fields of an answer that point to a file, and what each holds. */
const FILE_FIELDS: Record<string, string> = {
  download_url: 'the downloaded file',
  audio_url: 'the generated audio',
  transcript_url: 'the transcript (SRT) of the audio',
};

export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  description: string;
  mimeType?: string;
  size?: number;
}

export interface InlineText {
  type: 'resource';
  resource: { uri: string; mimeType: string; text: string };
}

function fileName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? url);
}

/** The size of a file by URL: from the disk, or from a HEAD request to the CDN (never with the key). */
async function sizeOf(url: string, signal?: AbortSignal): Promise<number | undefined> {
  try {
    if (url.startsWith('file:')) return fs.statSync(fileURLToPath(url)).size;
    const response = await fetch(url, { method: 'HEAD', signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(5000)]) : AbortSignal.timeout(5000) });
    const length = Number(response.headers.get('content-length'));
    return response.ok && Number.isFinite(length) && length >= 0 ? length : undefined;
  } catch {
    return undefined;
  }
}

async function readText(service: Service, url: string, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await service.fetchFile(url, { signal })) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Links to the files an answer names, each small text file followed by its content. */
export async function fileContent(service: Service, body: Record<string, unknown>, signal?: AbortSignal): Promise<Array<ResourceLink | InlineText>> {
  const content: Array<ResourceLink | InlineText> = [];
  for (const [field, description] of Object.entries(FILE_FIELDS)) {
    const url = body[field];
    if (typeof url !== 'string' || url === '') continue;
    const mimeType = MIME_TYPES[path.extname(new URL(url).pathname).toLowerCase()];
    const size = typeof body.size_bytes === 'number' && field === 'download_url' ? body.size_bytes : await sizeOf(url, signal);
    content.push({ type: 'resource_link', uri: url, name: fileName(url), description, ...(mimeType ? { mimeType } : {}), ...(size !== undefined ? { size } : {}) });
    if (mimeType && TEXT_TYPES.has(mimeType) && size !== undefined && size <= INLINE_TEXT_MAX_BYTES) {
      const text = await readText(service, url, signal).catch(() => undefined);
      if (text !== undefined) content.push({ type: 'resource', resource: { uri: url, mimeType, text } });
    }
  }
  return content;
}
