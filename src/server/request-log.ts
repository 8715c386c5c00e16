import { Writable } from 'node:stream';
import type { FastifyServerOptions } from 'fastify';
import { redactSecrets, redactUrl } from '../core/redact.js';

/** Where `serve --log` lines go; stderr unless a test listens. */
export type LogSink = (line: string) => void;

const toStderr: LogSink = (line) => process.stderr.write(line);

/**
 * The request log of `serve --log`: one line per request and per answer, with no secret in any
 * of them. The serializers leave headers and bodies out and mask `?api_key=` in URLs; every line
 * then passes through `redactSecrets` as well, so an error message that quotes a key (a JSON
 * parse error echoing the body, say) is masked too.
 */
export function requestLogger(sink: LogSink = toStderr): FastifyServerOptions['logger'] {
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      sink(redactSecrets(chunk.toString()));
      done();
    },
  });
  return {
    level: 'info',
    stream,
    serializers: {
      req: (request: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip ?? request.socket?.remoteAddress,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      err: (error: Error & { code?: string; statusCode?: number }) => ({
        type: error.name,
        code: error.code,
        statusCode: error.statusCode,
        message: redactSecrets(error.message),
        stack: redactSecrets(error.stack ?? ''),
      }),
    },
  };
}
