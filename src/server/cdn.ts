import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '../core/errors.js';

const CONTENT_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.srt': 'application/x-subrip; charset=utf-8',
  '.mp4': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.webm': 'video/webm',
  '.wav': 'audio/wav',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
};

/**
 * Serves files the engine stored: generated audio (permanent, inline), downloads (attachment, so
 * browsers save them, under the name made from the title) and the subscription settings page.
 * No key is needed: the URLs are the capability. Single byte ranges are honoured (206, or 416
 * past the end), with an ETag for If-Range, so an interrupted transfer resumes where it broke.
 */
export function registerCdn(app: FastifyInstance, root: string): void {
  const base = path.resolve(root);
  app.get('/cdn/*', async (request, reply) => {
    const relative = (request.params as { '*': string })['*'];
    const file = path.resolve(base, relative);
    if (!file.startsWith(base + path.sep)) throw notFound('No such file.');
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) throw notFound('No such file.');

    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const ifRange = request.headers['if-range'];
    const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, stat.size) : undefined;
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${stat.size}`);
      return reply.status(416).send({ success: false, error: `Range not satisfiable: the file has ${stat.size} bytes.`, code: 'invalid_request' });
    }

    reply.header('content-type', CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
    reply.header('accept-ranges', 'bytes');
    reply.header('etag', etag);
    reply.header('last-modified', stat.mtime.toUTCString());
    // Downloads expire (about 30 days) and the settings page follows the plan table; audio never changes.
    reply.header('cache-control', relative.startsWith('audio/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    if (relative.startsWith('downloads/')) reply.header('content-disposition', attachment(path.basename(file)));
    if (range) return sendBytes(reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`), file, range.start, range.end);
    return sendBytes(reply, file, 0, stat.size - 1);
  });
}

function sendBytes(reply: FastifyReply, file: string, start: number, end: number) {
  reply.header('content-length', Math.max(0, end - start + 1));
  if (end < start) return reply.send('');
  return reply.send(fs.createReadStream(file, { start, end }));
}

/**
 * One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`. Several ranges, or a header that is not a
 * byte range, are ignored (the whole file is the answer, as RFC 9110 allows).
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * `attachment; filename="<ASCII>"; filename*=UTF-8''<the real name>` (RFC 6266 / 5987): old
 * clients read the plain name, with accents stripped and other characters replaced; everyone else
 * gets the title as it is.
 */
export function attachment(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .replace(/[^\x20-\x7e]/gu, '_')
    .replace(/["\\%;]/g, '_');
  if (ascii === name) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
