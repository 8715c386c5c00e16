import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** The folders of the CDN and how each is served: what the engine stores there and how long it stays. */
const FOLDERS: Record<string, { cacheControl: string; attachment: boolean }> = {
  // Generated audio never changes.
  audio: { cacheControl: 'public, max-age=31536000, immutable', attachment: false },
  // Downloads expire (about 30 days); browsers save them under the title's name.
  downloads: { cacheControl: 'public, max-age=3600', attachment: true },
  // The settings page follows the plan table.
  settings: { cacheControl: 'public, max-age=3600', attachment: false },
};

const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Serves files the engine stored: generated audio (permanent, inline), downloads (attachment, so
 * browsers save them, under the name made from the title) and the subscription settings page.
 * No key is needed: the URLs are the capability, so only what the engine put there is served —
 * regular files whose real path lies inside the folder, under the one canonical spelling of their
 * URL (a link, `..`, `//` or `./` is a 404, never a file served under another folder's headers).
 * Single byte ranges are honoured (206, or 416 past the end) with an ETag for If-Range, so an
 * interrupted transfer resumes; If-None-Match and If-Modified-Since answer 304.
 */
export function registerCdn(app: FastifyInstance, root: string): void {
  const base = path.resolve(root);
  // HEAD is answered here too: Fastify's own HEAD route would read the whole file to throw it away.
  app.route({ method: ['GET', 'HEAD'], url: '/cdn/*', handler: async (request, reply) => {
    const relative = (request.params as { '*': string })['*'];
    const found = await openServedFile(base, relative);
    if (!found) throw notFound('No such file.');
    const { file, stat, folder } = found;
    let handedOver = false;
    try {
      const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      const lastModified = stat.mtime.toUTCString();
      reply.header('accept-ranges', 'bytes');
      reply.header('etag', etag);
      reply.header('last-modified', lastModified);
      reply.header('cache-control', FOLDERS[folder]!.cacheControl);
      if (notModified(request, etag, stat.mtimeMs)) return reply.status(304).send();

      const ifRange = request.headers['if-range'];
      const rangeApplies = ifRange === undefined || ifRange === etag || ifRange === lastModified;
      const range = rangeApplies ? parseRange(request.headers.range, stat.size) : undefined;
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${stat.size}`);
        return reply.status(416).send({ success: false, error: `Range not satisfiable: the file has ${stat.size} bytes.`, code: 'invalid_request' });
      }
      reply.header('content-type', CONTENT_TYPES[path.extname(relative).toLowerCase()] ?? 'application/octet-stream');
      if (FOLDERS[folder]!.attachment) reply.header('content-disposition', attachment(path.basename(relative)));
      const { start, end } = range ?? { start: 0, end: stat.size - 1 };
      if (range) reply.status(206).header('content-range', `bytes ${start}-${end}/${stat.size}`);
      reply.header('content-length', Math.max(0, end - start + 1));
      if (end < start || request.method === 'HEAD') return reply.send();
      handedOver = true;
      // The stream closes the file when it ends or is destroyed.
      return reply.send(file.createReadStream({ start, end }));
    } finally {
      if (!handedOver) await file.close();
    }
  } });
}

/**
 * Opens the file a CDN path names, or undefined when it must not be served: the path is not the
 * canonical one, is not in a known folder, names a hidden or temporary file, resolves (through a
 * link anywhere on the way) outside the CDN folder, or is not a regular file. The file is opened
 * without following a final link and checked by its descriptor, so it cannot be swapped between
 * the check and the read.
 */
async function openServedFile(base: string, relative: string): Promise<{ file: fs.promises.FileHandle; stat: fs.Stats; folder: string } | undefined> {
  const segments = relative.split('/');
  const canonical = segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..' && !segment.startsWith('.') && !segment.includes('\\') && !segment.includes('\0'));
  const folder = segments[0]!;
  if (!canonical || segments.length < 2 || !Object.hasOwn(FOLDERS, folder) || relative.endsWith('.tmp')) return undefined;
  const realBase = await fs.promises.realpath(base).catch(() => undefined);
  const real = await fs.promises.realpath(path.join(base, ...segments)).catch(() => undefined);
  if (!realBase || !real || real !== path.join(realBase, ...segments)) return undefined;
  const fd = await fs.promises.open(real, fs.constants.O_RDONLY | NO_FOLLOW).catch(() => undefined);
  if (!fd) return undefined;
  const stat = await fd.stat().catch(() => undefined);
  if (!stat?.isFile()) {
    await fd.close();
    return undefined;
  }
  return { file: fd, stat, folder };
}

/** Whether a conditional GET may be answered 304 (RFC 9110 §13.1.2, §13.1.3): If-None-Match wins over If-Modified-Since. */
function notModified(request: FastifyRequest, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const weak = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => weak(tag) === etag);
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/**
 * One range of `bytes=a-b`, `bytes=a-` or `bytes=-n` (the unit in any case). Several ranges, a
 * header that is not a byte range, or an invalid one (`bytes=99-0`: its last position is before
 * its first) are ignored, so the whole file is the answer, as RFC 9110 §14.2 says; a valid range
 * that starts past the end is 416.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes[ \t]*=[ \t]*(\d*)-(\d*)[ \t]*$/i.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
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
