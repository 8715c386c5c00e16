/**
 * Where a caller fetches a file the engine stored under `cdn/`: a configured CDN base URL when
 * there is one (setting `cdn_base_url`), else the `serve` address the caller reached, else — in
 * process — a file:// URL. Computed when the job is read, not when it ran, because a job
 * submitted through `serve` may be run by a detached worker that knows no address.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RequestContext } from '../context.js';
import { cdnDir } from '../paths.js';

export const CDN_BASE_URL_SETTING = 'cdn_base_url';

export function publicFileUrl(request: RequestContext, relativePath: string): string {
  const segments = relativePath.split('/').map(encodeURIComponent).join('/');
  const configured = request.engine.settings.get<string>(CDN_BASE_URL_SETTING);
  if (configured) return `${configured.replace(/\/+$/, '')}/${segments}`;
  if (request.baseUrl) return `${request.baseUrl.replace(/\/+$/, '')}/cdn/${segments}`;
  return pathToFileURL(path.join(cdnDir(request.engine.filesDir), relativePath)).href;
}
