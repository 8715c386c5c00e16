import type { FastifyRequest } from 'fastify';
import { ServiceError, badRequest, fileTooLarge } from '../core/errors.js';
import type { RouteDef } from '../core/route.js';
import type { UploadedFile } from '../core/schemas/params.js';

/**
 * Reads a multipart form into fields and in-memory files. Everything that can go wrong while
 * reading it is the sender's doing (no boundary, a part cut short, a field past its size), so it
 * is answered 400 saying what is wrong with the body — never cut silently, never a 500.
 */

/** Larger than every text field's own limit (a 100,000-character script is at most 400 kB of UTF-8). */
export const FORM_FIELD_MAX_BYTES = 1024 * 1024;
const FORM_FIELD_NAME_MAX_BYTES = 100;
const FORM_FIELDS_MAX = 50;
const FORM_FILES_MAX = 4;

export interface FormReadOptions {
  /** Keep every value of a repeated field (a list field of a JSON route), not only the last. */
  collectRepeats?: boolean;
  /** Refuse the form past this many bytes of field values (a JSON route's body limit). */
  maxValueBytes?: number;
  /** Fields the form may have (default FORM_FIELDS_MAX). */
  maxFields?: number;
}

export async function readMultipartForm(request: FastifyRequest, route: RouteDef, options: FormReadOptions = {}): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) {
    throw badRequest('Invalid request: this endpoint takes a multipart/form-data body.');
  }
  const files = route.files ?? {};
  const largest = Math.max(1, ...Object.values(files).map((file) => file.maxBytes));
  const fields: Record<string, unknown> = {};
  let current = 'file';
  let valueBytes = 0;
  const limits = {
    fileSize: largest,
    fieldSize: FORM_FIELD_MAX_BYTES,
    fieldNameSize: FORM_FIELD_NAME_MAX_BYTES,
    fields: options.maxFields ?? FORM_FIELDS_MAX,
    files: FORM_FILES_MAX,
  };
  try {
    for await (const part of request.parts({ limits })) {
      if (part.type === 'file') {
        current = part.fieldname;
        fields[part.fieldname] = await readFilePart(part, files);
      } else {
        // busboy cuts a long name or value and only flags it: refuse instead of storing the cut text.
        if (part.fieldnameTruncated) {
          throw badRequest(`Invalid request: a form field name is longer than ${FORM_FIELD_NAME_MAX_BYTES} bytes.`);
        }
        // On a JSON route the form keeps the JSON body's limit, and its answer.
        if (part.valueTruncated && options.maxValueBytes !== undefined) throw bodyTooLarge();
        if (part.valueTruncated) {
          throw badRequest(`Invalid request: ${part.fieldname}: the value is larger than ${FORM_FIELD_MAX_BYTES / (1024 * 1024)} MB.`);
        }
        valueBytes += Buffer.byteLength(typeof part.value === 'string' ? part.value : JSON.stringify(part.value));
        if (options.maxValueBytes !== undefined && valueBytes > options.maxValueBytes) throw bodyTooLarge();
        addField(fields, part.fieldname, part.value, options.collectRepeats === true);
      }
    }
  } catch (error) {
    throw formError(error, current, files[current]?.maxBytes ?? largest, limits.fields);
  }
  return fields;
}

function addField(fields: Record<string, unknown>, name: string, value: unknown, collectRepeats: boolean): void {
  const earlier = fields[name];
  if (!collectRepeats || earlier === undefined) fields[name] = value;
  else fields[name] = Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
}

/** The answer a JSON body past the body limit gets, so a form past it is answered the same. */
export const bodyTooLarge = () =>
  new ServiceError({ status: 413, code: 'invalid_request', message: 'Invalid request: The request body is too large.' });

type FilePart = { fieldname: string; filename: string; mimetype: string; toBuffer(): Promise<Buffer> };

async function readFilePart(part: FilePart, files: NonNullable<RouteDef['files']>): Promise<UploadedFile> {
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
  return { filename: part.filename, contentType: part.mimetype, data };
}

const limitMessages: Record<string, string> = {
  FST_PARTS_LIMIT: 'the form has too many parts',
  FST_FILES_LIMIT: `the form has more than ${FORM_FILES_MAX} files`,
  FST_PROTO_VIOLATION: 'a form field is named after an object property (such as __proto__)',
  FST_INVALID_JSON_FIELD_ERROR: 'a form field sent as application/json is not valid JSON',
};

/** The 400 for an error met while reading the form. */
function formError(error: unknown, field: string, fileLimit: number, fieldsLimit: number): ServiceError {
  if (error instanceof ServiceError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge(field, fileLimit);
  if (code === 'FST_FIELDS_LIMIT') return badRequest(`Invalid request: the form has more than ${fieldsLimit} fields.`);
  const known = limitMessages[code];
  if (known !== undefined) return badRequest(`Invalid request: ${known}.`);
  // The rest come from the form parser reading the body: no boundary, a part cut short, bad headers.
  const reason = error instanceof Error ? error.message.replace(/^Multipart: /, '') : String(error);
  return new ServiceError({
    status: 400,
    code: 'invalid_request',
    message: `Invalid request: the multipart body is malformed (${reason.charAt(0).toLowerCase()}${reason.slice(1)}).`,
    hint: 'Send multipart/form-data with the boundary named in Content-Type and every part complete (curl -F does this).',
    cause: error,
  });
}
