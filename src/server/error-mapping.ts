import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, badRequest, insufficientStorage } from '../core/errors.js';
import { isDiskFull } from '../engine/store/disk-space.js';

/**
 * The service's error body for anything a handler or Fastify throws. A ServiceError passes as it
 * is; a Fastify error of the request (bad JSON, wrong Content-Type, too large) becomes a 400-family
 * `invalid_request`; anything else is a fault of ours, answered 500 `internal`.
 */
export function toServiceError(error: FastifyError | ServiceError): ServiceError {
  if (error instanceof ServiceError) return error;
  if (isDiskFull(error)) return insufficientStorage(error);
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    // The message of our own fault may name tables, paths or the database: it goes to the log (serve --log), never the body.
    return new ServiceError({ status: 500, code: 'internal', message: 'Internal error: the server could not answer this request.', hint: 'Try again; if it keeps failing, report it with the time of the request.', cause: error });
  }
  const messages: Record<string, string> = {
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type: send application/json, or the fields as a form (application/x-www-form-urlencoded or multipart/form-data).',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'The JSON body is empty: send a JSON object.',
    FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  };
  const message = messages[error.code] ?? (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
    ? `The body is not valid JSON: ${error.message}`
    : error.message);
  return new ServiceError({ status: status === 415 ? 400 : status, code: 'invalid_request', message: `Invalid request: ${message}` });
}

/**
 * What a caller may see of a failure: one who has not shown a valid key (the key lookup itself may
 * have failed on an unreachable database) hears that the service is unavailable, never which
 * database it uses.
 */
export function forCaller(failure: ServiceError, authenticated: boolean): ServiceError {
  if (authenticated || failure.code !== 'store_unavailable') return failure;
  return new ServiceError({
    status: failure.status,
    code: failure.code,
    message: 'Service unavailable: the database cannot be reached.',
    hint: failure.hint,
    retryAfterSeconds: failure.retryAfterSeconds,
  });
}

/**
 * Fastify's refusals before a route is found, answered with the service's body. A path that is not
 * valid percent-encoding (`/api/folders/%ZZ`) is named without echoing the URL, which may carry
 * `?api_key=`.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const failure = error.code === 'FST_ERR_BAD_URL'
    ? badRequest('Invalid request: the URL path is not valid percent-encoding.', 'Encode each path segment with encodeURIComponent.')
    : toServiceError(error);
  reply.status(failure.status).send(failure.toBody());
}

/** What Node's HTTP parser refuses before a request exists, by its error code. */
const parserRefusals: Record<string, { status: number; code: string; message: string; hint?: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'invalid_request',
    message: 'Request header fields too large: the request line and headers together exceed the server\'s limit (16 KB).',
    hint: 'Send the key in the Authorization header and keep other headers short; long inputs belong in the body.',
  },
  HPE_INVALID_METHOD: {
    status: 501,
    code: 'not_implemented',
    message: 'Unknown HTTP method: the API answers GET, POST, PATCH and DELETE (and HEAD for GET routes).',
    hint: 'See GET /api/openapi.json for each endpoint\'s method.',
  },
  HPE_INVALID_CHUNK_SIZE: {
    status: 400,
    code: 'invalid_request',
    message: 'Invalid request: the chunked body is malformed (a chunk size is not a hexadecimal number).',
    hint: 'Send Transfer-Encoding: chunked bodies as RFC 9112 describes, or send Content-Length instead.',
  },
  HPE_UNEXPECTED_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_request',
    message: 'Invalid request: the request has both Content-Length and Transfer-Encoding; send one of them.',
  },
  HPE_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'invalid_request',
    message: 'Invalid request: Content-Length is not a single whole number of bytes.',
  },
  HPE_INVALID_VERSION: {
    status: 505,
    code: 'invalid_request',
    message: 'HTTP version not supported: send HTTP/1.1 (or HTTP/1.0).',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    message: 'Request timeout: the request headers did not arrive in time, so the connection was closed.',
  },
};

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers too large, a method
 * it does not know, broken chunked framing): answered here in the service's error body, then the
 * connection closes (the parser cannot find where the next request would start). Nothing is
 * written once an answer to the request has begun: a second status line would corrupt it.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
    const known = parserRefusals[error.code ?? ''];
    const failure = new ServiceError(known ?? {
      status: 400,
      code: 'invalid_request',
      message: `Invalid request: the request is not valid HTTP/1.1 (${error.code ?? error.message}).`,
    });
    const payload = JSON.stringify(failure.toBody());
    socket.end(
      `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
  }
  socket.destroySoon();
}
