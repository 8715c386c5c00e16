import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, badRequest } from '../core/errors.js';

/**
 * The service's error body for anything a handler or Fastify throws. A ServiceError passes as it
 * is; a Fastify error of the request (bad JSON, wrong Content-Type, too large) becomes a 400-family
 * `invalid_request`; anything else is a fault of ours, answered 500 `internal`.
 */
export function toServiceError(error: FastifyError | ServiceError): ServiceError {
  if (error instanceof ServiceError) return error;
  const status = error.statusCode ?? 500;
  if (status >= 500) {
    return new ServiceError({ status: 500, code: 'internal', message: `Internal error: ${error.message}`, cause: error });
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
