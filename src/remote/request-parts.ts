// undici's own FormData: the global one belongs to Node's bundled copy and cannot be a body here.
import { FormData } from 'undici';
import type { z } from 'zod';
import { inputShape, isDefaultValue } from '../core/input-defaults.js';
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

/** A query value: booleans (`true`, or `"true"` where the field is a flag) as `1`/`0`, as the spec's own hint writes them (`refresh=1`). */
function asQueryText(schema: z.ZodType | undefined, value: unknown): string {
  const parsed = typeof value === 'boolean' ? value : schema?.safeParse(value).data;
  return typeof parsed === 'boolean' ? (parsed ? '1' : '0') : asText(value);
}

/**
 * Splits a call's input over the path, the query string and the body, as the route says. Query
 * and form fields at their default are left out, as the service's clients do: a server may act on
 * a parameter's mere presence. A JSON body carries every field the caller gave.
 */
export function buildRequestParts(route: RouteDef, input: Record<string, unknown>): HttpRequestParts {
  const params = new Set(pathParams(route.path));
  const path = fillPath(route.path, input);
  const query = new URLSearchParams();
  const given = Object.entries(input).filter(([field, value]) => !params.has(field) && value !== undefined);
  if (route.encoding === 'json') return { path, query, json: Object.fromEntries(given) };
  // The route table's routes only: `tubekit api` sends an unknown path's fields as they are.
  const shape = route.input && inputShape(route.input);
  const rest = given.filter(([field, value]) => !isDefaultValue(shape, field, value));
  if (route.encoding === 'query') {
    for (const [field, value] of rest) query.set(field, asQueryText(shape?.[field], value));
    return { path, query };
  }
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
