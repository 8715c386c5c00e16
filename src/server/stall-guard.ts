import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../core/errors.js';

/** How long a request body may go without a byte before the server gives up on it. */
export const DEFAULT_STALL_SECONDS = 30;

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/**
 * Closes requests whose body stops arriving. The clock is the socket's idle timer, which every
 * byte received resets, so an upload on a slow line that keeps moving is never cut short; it runs
 * only while a body is being received, so a long-poll (which waits after its request is read) and
 * a long render are never cut either. A stalled request hears 408, then its connection closes.
 * (Headers that stall are Node's `headersTimeout`, which answers 408 on its own.)
 */
export function guardStalledBodies(app: FastifyInstance, stallSeconds = DEFAULT_STALL_SECONDS): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const socket = raw.socket;
    if (!hasBody(raw) || raw.complete) return done();
    const stop = () => socket.setTimeout(0);
    socket.setTimeout(stallSeconds * 1000);
    raw.once('end', stop);
    // A body the route never read (a 401 before it, say) must not leave the timer on a kept-alive socket.
    reply.raw.once('finish', () => {
      if (raw.complete) stop();
    });
    // Node emits 'timeout' on a request still incomplete when its socket times out.
    raw.once('timeout', () => {
      if (reply.raw.headersSent) {
        socket.destroy();
        return;
      }
      const failure = new ServiceError({
        status: 408,
        code: 'request_timeout',
        message: `Request timeout: the request body stopped arriving (no bytes for ${stallSeconds} s), so the connection was closed.`,
        hint: 'Send the whole body promptly; a slow upload is fine as long as it keeps moving.',
      });
      const payload = JSON.stringify(failure.toBody());
      reply.raw.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), connection: 'close' });
      reply.raw.end(payload, () => socket.destroy());
    });
    done();
  });
}
