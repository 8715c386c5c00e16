/**
 * Files across the MCP boundary. In: a multipart file field of a route takes a path on disk or an
 * http(s) URL, read here into the upload the route expects. Out: the files an answer points to
 * (audio, downloads, transcripts) become resource links with their URL, type and size, and a small
 * text file (an SRT) is also put inline, so an agent can read it without fetching anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UploadedFile } from '../core/schemas/params.js';
import type { Service } from '../core/service.js';
import { usageError } from '../cli/errors.js';
import { readUpload } from '../cli/files.js';

/** Text files up to this size are inlined beside their link. */
export const INLINE_TEXT_MAX_BYTES = 256 * 1024;

/**
 * The upload a file argument names. Reads at most one byte past the route's limit from a URL, so
 * an oversized file is refused by the route itself, with its own message. Anything but a string is
 * left for the route to refuse.
 */
export async function readFileArgument(value: unknown, maxBytes: number, signal?: AbortSignal): Promise<unknown> {
  if (typeof value !== 'string' || value.trim() === '') return value === '' ? undefined : value;
  if (/^https?:\/\//i.test(value)) return fetchUpload(value, maxBytes + 1, signal);
  return readUpload(value.startsWith('file:') ? fileURLToPath(value) : value, 'file');
}

async function fetchUpload(url: string, limit: number, signal?: AbortSignal): Promise<UploadedFile> {
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (error) {
    throw usageError(`Cannot fetch ${url}: ${(error as Error).message}.`, 'Give a URL this machine can reach, or a path on disk.');
  }
  if (!response.ok || !response.body) {
    throw usageError(`Cannot fetch ${url}: the server answered ${response.status}.`, 'Give a URL this machine can reach, or a path on disk.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    chunks.push(Buffer.from(chunk));
    size += chunk.byteLength;
    if (size >= limit) break;
  }
  const data = Buffer.concat(chunks).subarray(0, limit);
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'upload');
  return { filename: name, contentType: response.headers.get('content-type') ?? 'application/octet-stream', data };
}

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
