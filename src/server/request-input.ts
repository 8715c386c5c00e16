import type { FastifyRequest } from 'fastify';
import { badRequest } from '../core/errors.js';
import type { RouteDef } from '../core/route.js';
import { FORM_BODY_FIELDS_MAX, typeFormFields, type FormFields } from './form-fields.js';
import { readMultipartForm } from './multipart-form.js';

/**
 * Gathers a request's fields into one object for the route's input schema: path parameters,
 * then query or JSON body or multipart form (read by multipart-form.ts). A JSON route also takes
 * its fields as a form (multipart or urlencoded), as the hosted documentation tells users to send.
 */
export interface CollectedInput {
  input: Record<string, unknown>;
  /** An `api_key` form field: the hosted service accepts the key inside form bodies. */
  formApiKey?: string;
}

/** A JSON body's limit, which a form sent to a JSON route keeps too. */
export const BODY_MAX_BYTES = 1024 * 1024;

const URLENCODED = 'application/x-www-form-urlencoded';

/** Whether the request's body is a form (whose fields may carry the key). */
export function hasFormBody(request: FastifyRequest): boolean {
  const type = request.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
  return type === URLENCODED || type === 'multipart/form-data';
}

export async function collectInput(request: FastifyRequest, route: RouteDef): Promise<CollectedInput> {
  const input: Record<string, unknown> = {};
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (route.encoding === 'query') Object.assign(input, query);
  const formBody = route.encoding === 'json' && hasFormBody(request);
  if (formBody) Object.assign(input, typeFormFields(await readForm(request, route), route.input));
  else if (route.encoding === 'json') {
    const body = request.body;
    if (body === undefined || body === null) {
      throw badRequest('Invalid request: send a JSON object body with Content-Type: application/json (or the fields as a form).');
    }
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid request: the body must be a JSON object.');
    Object.assign(input, body);
  }
  if (route.encoding === 'multipart') Object.assign(input, isUrlEncoded(request) ? urlEncodedFields(request, route) : await readMultipartForm(request, route));
  Object.assign(input, request.params as Record<string, unknown>);
  const formApiKey = (route.encoding === 'multipart' || formBody) && typeof input.api_key === 'string' ? input.api_key : undefined;
  delete input.api_key;
  return { input, formApiKey };
}

const isUrlEncoded = (request: FastifyRequest) => request.headers['content-type']?.split(';')[0]!.trim().toLowerCase() === URLENCODED;

/**
 * A multipart route's text fields sent as a plain form (the hosted documentation says every POST
 * takes form fields); a file cannot travel in one, so a file field is refused saying how to send it.
 */
function urlEncodedFields(request: FastifyRequest, route: RouteDef): Record<string, unknown> {
  const fields = (request.body ?? {}) as Record<string, unknown>;
  for (const field of Object.keys(route.files ?? {})) {
    if (field in fields) {
      throw badRequest(
        `Invalid request: ${field}: a file cannot be sent in an application/x-www-form-urlencoded body.`,
        'Send the request as multipart/form-data (curl -F), with the file as a file part.',
      );
    }
  }
  return { ...fields };
}

/** A JSON route's form: urlencoded (parsed with the body limit) or multipart (read here, same limits). */
async function readForm(request: FastifyRequest, route: RouteDef): Promise<FormFields> {
  if (request.isMultipart()) {
    return await readMultipartForm(request, route, { collectRepeats: true, maxValueBytes: BODY_MAX_BYTES, maxFields: FORM_BODY_FIELDS_MAX }) as FormFields;
  }
  return (request.body ?? {}) as FormFields;
}
