import type { FastifyRequest } from 'fastify';
import { badRequest } from '../core/errors.js';
import type { RouteDef } from '../core/route.js';
import { readMultipartForm } from './multipart-form.js';

/**
 * Gathers a request's fields into one object for the route's input schema: path parameters,
 * then query or JSON body or multipart form (read by multipart-form.ts).
 */
export interface CollectedInput {
  input: Record<string, unknown>;
  /** An `api_key` form field: the hosted service accepts the key inside multipart bodies. */
  formApiKey?: string;
}

export async function collectInput(request: FastifyRequest, route: RouteDef): Promise<CollectedInput> {
  const input: Record<string, unknown> = {};
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (route.encoding === 'query') Object.assign(input, query);
  if (route.encoding === 'json') {
    const body = request.body;
    if (body === undefined || body === null) {
      throw badRequest('Invalid request: send a JSON object body with Content-Type: application/json.');
    }
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid request: the body must be a JSON object.');
    Object.assign(input, body);
  }
  if (route.encoding === 'multipart') Object.assign(input, await readMultipartForm(request, route));
  Object.assign(input, request.params as Record<string, unknown>);
  const formApiKey = route.encoding === 'multipart' && typeof input.api_key === 'string' ? input.api_key : undefined;
  delete input.api_key;
  return { input, formApiKey };
}
