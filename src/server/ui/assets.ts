/**
 * The dashboard's assets, served by serve itself (no CDN): each under a name carrying a hash of
 * its content, so it may be cached for a year and a new build is a new name.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { enhanceJs } from './assets/enhance.js';
import { stylesCss } from './assets/styles.js';

export interface Asset {
  /** Where pages link it: /ui/assets/<name>.<hash>.<ext>. */
  path: string;
  type: string;
  body: Buffer;
  etag: string;
}

function asset(name: string, ext: string, type: string, text: string): Asset {
  const body = Buffer.from(text);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { path: `/ui/assets/${name}.${hash}.${ext}`, type, body, etag: `"${hash}"` };
}

export const uiAssets = {
  css: asset('app', 'css', 'text/css; charset=utf-8', stylesCss),
  js: asset('app', 'js', 'text/javascript; charset=utf-8', enhanceJs),
};

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export function registerAssets(app: FastifyInstance): void {
  for (const file of Object.values(uiAssets)) {
    app.get(file.path, (request, reply) => {
      reply.header('cache-control', ASSET_CACHE_CONTROL).header('etag', file.etag);
      if (request.headers['if-none-match'] === file.etag) {
        reply.status(304).send();
        return;
      }
      reply.type(file.type).send(file.body);
    });
  }
}
