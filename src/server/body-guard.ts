import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../core/errors.js';

/**
 * How long a request body may take. A body is a client's to send, but not at any pace: one that
 * stops, trickles, or never ends holds a connection (and its memory) for as long as it goes on.
 */
export interface BodyBounds {
  /** Seconds a body may go without a byte; also the window its rate is judged over. */
  stallSeconds: number;
  /** Lowest rate, in bytes a second over each window of `stallSeconds`, a body may arrive at. */
  minBytesPerSecond: number;
  /** Seconds the whole body may take, however fast it moves. */
  maxSeconds: number;
  /**
   * Seconds the rest of a body refused before it was read is still read (and thrown away) after
   * the answer, before the connection closes: closing on a client still sending resets the
   * connection, and a reset can destroy the answer before the client reads it.
   */
  lingerSeconds: number;
}

export const DEFAULT_BODY_BOUNDS: BodyBounds = { stallSeconds: 30, minBytesPerSecond: 512, maxSeconds: 600, lingerSeconds: 10 };

/**
 * A body refused before it was read to its end is read and dropped after the answer, keeping the
 * socket, when at most this much of it is left (the clocks above still bound how long that takes);
 * a longer one closes its connection instead.
 */
const DRAIN_MAX_BYTES = 1024 * 1024;

const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

interface Arriving {
  request: IncomingMessage;
  response: ServerResponse;
  socket: Socket;
  startedAt: number;
  windowStartedAt: number;
  bytesAtWindowStart: number;
}

/**
 * Guards request bodies: one that stalls, trickles below the minimum rate or runs past its time
 * bound is answered 408 and its connection closed (the clock runs only while a body arrives, so a
 * long-poll, which waits after its request has arrived, and a long render are never cut). And a
 * body that was not read to its end when the answer went out (a form refused at its 51st field)
 * never stays where the next request on a kept-alive socket would be read from: a short rest is
 * read and dropped, a long one closes the connection after the answer (`Connection: close`).
 * (Headers that stall are Node's `headersTimeout`, which answers 408 on its own.)
 */
export function guardRequestBodies(app: FastifyInstance, overrides: Partial<BodyBounds> = {}): void {
  const bounds = { ...DEFAULT_BODY_BOUNDS, ...overrides };
  const arriving = new Set<Arriving>();
  // One clock for every body in progress: a tick a quarter of the stall window (at most a second).
  const tickMs = Math.min(1_000, Math.max(50, (bounds.stallSeconds * 1_000) / 4));
  let ticker: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = Date.now();
    for (const body of arriving) {
      const refusal = judge(body, now, bounds);
      if (refusal) {
        arriving.delete(body);
        refuse(body, refusal);
      }
    }
    if (arriving.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };

  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (!hasBody(raw) || raw.complete) return done();
    const now = Date.now();
    const body: Arriving = { request: raw, response: reply.raw, socket: raw.socket, startedAt: now, windowStartedAt: now, bytesAtWindowStart: raw.socket.bytesRead };
    arriving.add(body);
    ticker ??= setInterval(tick, tickMs).unref();
    const stop = () => arriving.delete(body);
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });

  // A callback hook, not an async one: it runs on every reply.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (hasBody(raw) && !raw.complete && !raw.destroyed) {
      // A short rest is read and dropped, and the socket kept; a long or unknown one is not worth reading.
      if (Number(raw.headers['content-length']) <= DRAIN_MAX_BYTES) reply.raw.once('finish', () => dropRest(raw));
      else {
        reply.header('connection', 'close');
        lingerThenClose(raw, bounds.lingerSeconds);
      }
    }
    done(null, payload);
  });
}

/** Why a body in progress is refused now, or undefined while it is within its bounds. */
function judge(body: Arriving, now: number, bounds: BodyBounds): string | undefined {
  if (now - body.startedAt >= bounds.maxSeconds * 1_000) {
    return `the request body took longer than ${bounds.maxSeconds} s to arrive`;
  }
  // A body the server itself is not reading (backpressure) is not the client's delay.
  if (body.request.isPaused()) {
    body.windowStartedAt = now;
    body.bytesAtWindowStart = body.socket.bytesRead;
    return undefined;
  }
  const windowMs = now - body.windowStartedAt;
  if (windowMs < bounds.stallSeconds * 1_000) return undefined;
  const received = body.socket.bytesRead - body.bytesAtWindowStart;
  if (received === 0) return `the request body stopped arriving (no bytes for ${bounds.stallSeconds} s)`;
  if (received < bounds.minBytesPerSecond * (windowMs / 1_000)) {
    return `the request body arrived too slowly (${received} bytes in ${Math.round(windowMs / 1_000)} s; at least ${bounds.minBytesPerSecond} bytes a second are needed)`;
  }
  body.windowStartedAt = now;
  body.bytesAtWindowStart = body.socket.bytesRead;
  return undefined;
}

/** Answers 408 (unless an answer has begun) and frees the connection. */
function refuse({ response, socket }: Arriving, reason: string): void {
  if (response.headersSent) {
    socket.destroy();
    return;
  }
  const failure = new ServiceError({
    status: 408,
    code: 'request_timeout',
    message: `Request timeout: ${reason}, so the connection was closed.`,
    hint: 'Send the whole body promptly; a slow upload is fine as long as it keeps moving.',
  });
  const payload = JSON.stringify(failure.toBody());
  response.writeHead(408, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), connection: 'close' });
  response.end(payload, () => socket.destroy());
}

/** Makes the rest of a body flow to nowhere, whatever was reading it (a form parser that gave up). */
function dropRest(request: IncomingMessage): void {
  request.unpipe();
  request.removeAllListeners('data');
  request.resume();
}

/**
 * After an answer marked `Connection: close`, Node ends the socket and destroys it once the answer
 * is written. Here the destroy waits: the rest of the body is read and thrown away until it ends,
 * the client closes, or `lingerSeconds` pass — so a client still uploading reads its answer
 * instead of a reset.
 */
function lingerThenClose(request: IncomingMessage, lingerSeconds: number): void {
  const socket = request.socket;
  socket.destroySoon = () => {
    socket.end();
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, lingerSeconds * 1_000).unref();
    dropRest(request);
    if (request.complete) close();
    else request.once('end', close);
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
  };
}
