import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../core/errors.js';

const CONTENT_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.srt': 'application/x-subrip; charset=utf-8',
  '.mp4': 'video/mp4',
  '.m4a': 'audio/mp4',
  '.webm': 'video/webm',
  '.wav': 'audio/wav',
  '.json': 'application/json',
};

/**
 * Serves files the engine stored: generated audio (permanent, inline) and downloads
 * (attachment, so browsers save them). No key is needed: the URLs are the capability.
 */
export function registerCdn(app: FastifyInstance, root: string): void {
  app.get('/cdn/*', async (request, reply) => {
    const relative = (request.params as { '*': string })['*'];
    const file = path.resolve(root, relative);
    if (!file.startsWith(path.resolve(root) + path.sep)) throw notFound('No such file.');
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) throw notFound('No such file.');
    const extension = path.extname(file).toLowerCase();
    reply.header('content-type', CONTENT_TYPES[extension] ?? 'application/octet-stream');
    reply.header('content-length', stat.size);
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    if (relative.startsWith('downloads/')) {
      reply.header('content-disposition', `attachment; filename="${path.basename(file).replace(/"/g, '')}"`);
    }
    return reply.send(fs.createReadStream(file));
  });
}
