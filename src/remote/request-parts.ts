// undici's own FormData: the global one belongs to Node's bundled copy and cannot be a body here.
import { FormData } from 'undici';
import type { RouteDef } from '../core/route.js';
import { fillPath, pathParams } from '../core/route.js';
import type { UploadedFile } from '../core/schemas/params.js';

export interface HttpRequestParts {
  path: string;
  query: URLSearchParams;
  json?: Record<string, unknown>;
  form?: FormData;
}

const isFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' && value !== null && Buffer.isBuffer((value as UploadedFile).data);

const asText = (value: unknown): string => (Array.isArray(value) ? value.join(',') : String(value));

/** Splits a call's input over the path, the query string and the body, as the route says. */
export function buildRequestParts(route: RouteDef, input: Record<string, unknown>): HttpRequestParts {
  const params = new Set(pathParams(route.path));
  const path = fillPath(route.path, input);
  const query = new URLSearchParams();
  const rest = Object.entries(input).filter(([field, value]) => !params.has(field) && value !== undefined);
  if (route.encoding === 'query') {
    for (const [field, value] of rest) query.set(field, asText(value));
    return { path, query };
  }
  if (route.encoding === 'json') return { path, query, json: Object.fromEntries(rest) };
  if (route.encoding === 'multipart') {
    const form = new FormData();
    for (const [field, value] of rest) {
      if (isFile(value)) {
        const blob = new Blob([new Uint8Array(value.data)], { type: value.contentType ?? 'application/octet-stream' });
        form.append(field, blob, value.filename);
      } else {
        form.append(field, asText(value));
      }
    }
    return { path, query, form };
  }
  return { path, query };
}
