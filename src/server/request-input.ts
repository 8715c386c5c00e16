import type { FastifyRequest } from 'fastify';
import { badRequest, fileTooLarge } from '../core/errors.js';
import type { RouteDef } from '../core/route.js';
import type { UploadedFile } from '../core/schemas/params.js';

/**
 * Gathers a request's fields into one object for the route's input schema: path parameters,
 * then query or JSON body or multipart form. File parts are read into memory, and a file larger
 * than its route allows is refused while it streams, before the rest arrives.
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
  if (route.encoding === 'multipart') Object.assign(input, await readMultipart(request, route));
  Object.assign(input, request.params as Record<string, unknown>);
  const formApiKey = route.encoding === 'multipart' && typeof input.api_key === 'string' ? input.api_key : undefined;
  delete input.api_key;
  return { input, formApiKey };
}

async function readMultipart(request: FastifyRequest, route: RouteDef): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) {
    throw badRequest('Invalid request: this endpoint takes a multipart/form-data body.');
  }
  const files = route.files ?? {};
  const largest = Math.max(1, ...Object.values(files).map((file) => file.maxBytes));
  const fields: Record<string, unknown> = {};
  let current = 'file';
  try {
    for await (const part of request.parts({ limits: { fileSize: largest, fieldSize: 1024 * 1024, files: 4 } })) {
      if (part.type === 'file') {
        current = part.fieldname;
        // A file sent for a text field (curl -F script=@notes.txt) is refused by name, not as "too large".
        const limit = files[part.fieldname]?.maxBytes;
        if (limit === undefined) {
          const accepted = Object.keys(files);
          throw badRequest(
            `Invalid request: ${part.fieldname}: send it as a form field, not a file upload.`,
            accepted.length > 0 ? `Only ${accepted.join(', ')} takes a file here.` : 'This endpoint takes no files.',
          );
        }
        const data = await part.toBuffer();
        if (data.length > limit) throw fileTooLarge(part.fieldname, limit);
        const file: UploadedFile = { filename: part.filename, contentType: part.mimetype, data };
        fields[part.fieldname] = file;
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(current, files[current]?.maxBytes ?? largest);
    throw error;
  }
  return fields;
}
