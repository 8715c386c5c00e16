/**
 * `serve`'s connections under requests it refuses early or that never finish: a refused body
 * never leaves a kept-alive socket unusable, a trickled body is cut at its time bound, and the
 * framework's own refusals answer in the service's error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import type { RunningServer } from '../../src/server/serve.js';
import { RawConnection } from '../support/raw-http.js';
import { serveFreshEngine, type ServedEngine } from '../support/served-engine.js';

const boundary = 'tubekit-connections';
const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, size: number) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n${'x'.repeat(size)}\r\n`;

function multipartRequest(host: string, path: string, key: string, parts: string[], connection = 'keep-alive'): Buffer {
  const body = Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
  const head = `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n` +
    `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: ${connection}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), body]);
}
const getRequest = (host: string, path: string, key: string) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n\r\n`;

describe('serve: a body refused before it was read', () => {
  let engine: Engine;
  let server: RunningServer;
  let key: string;
  let served: ServedEngine;
  beforeAll(async () => {
    ({ engine, server, key } = served = await serveFreshEngine('ultimate', ['generations']));
  });
  afterAll(() => served.close());

  const refusals: [string, string, string[]][] = [
    // Each body is megabytes long, so the refusal comes while most of it is still on its way.
    ['more than 50 fields', '/api/generate-simple', Array.from({ length: 60 }, (_, i) => field(`f${i}`, 'x'.repeat(i < 51 ? 10 : 400_000)))],
    ['a field over 1 MB', '/api/generate-simple', [field('script', 'y'.repeat(8_000_000)), field('voice_id', 'v')]],
    ['more than 4 files', '/api/voices/clone', [field('displayName', 'Me'), ...Array.from({ length: 5 }, () => file('audioFile', 10)), file('audioFile', 8_000_000)]],
  ];

  it.each(refusals)('answers %s with a 400, then closes the socket cleanly (no reset) instead of leaving the body unread on it', async (_, path, parts) => {
    const connection = await RawConnection.open(server.url);
    try {
      expect(connection.write(multipartRequest(connection.host, path, key, parts))).toBe(true);
      const refused = await connection.response();
      expect(refused?.status).toBe(400);
      expect(JSON.parse(refused!.body)).toMatchObject({ success: false, code: 'invalid_request' });
      // The rest of the body was never read, so the server says it closes the socket, and does —
      // without a reset: it read what the client still sent.
      expect(refused!.headers.connection).toBe('close');
      await connection.closed;
      expect(connection.closedBy).toBe('end');
    } finally {
      connection.destroy();
    }
  });

  it('keeps the socket for the next request when little of a refused body was left', async () => {
    const connection = await RawConnection.open(server.url);
    try {
      // Refused at the 51st field with under 1 MB left: the rest is read and dropped, the socket kept.
      connection.write(multipartRequest(connection.host, '/api/generate-simple', key, Array.from({ length: 58 }, (_, i) => field(`f${i}`, 'x'.repeat(i < 51 ? 10 : 100_000)))));
      const refused = await connection.response();
      expect(refused?.status).toBe(400);
      expect(refused!.headers.connection).toBe('keep-alive');
      connection.write(getRequest(connection.host, '/api/folders', key));
      expect((await connection.response(3_000))?.status).toBe(200);
    } finally {
      connection.destroy();
    }
  });

  it('lets a client uploading megabytes read the 4xx it was refused with, never a reset', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const form = new FormData();
      form.append('displayName', 'Me');
      for (let i = 0; i < 5; i++) form.append('audioFile', new Blob([Buffer.alloc(10)]), 'a.wav');
      form.append('audioFile', new Blob([Buffer.alloc(20_000_000)]), 'big.wav');
      const response = await fetch(`${server.url}/api/voices/clone`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, error: expect.stringMatching(/more than 4 files/) });
    }
  });
});

describe('serve: bodies that trickle or never end', () => {
  let engine: Engine;
  let server: RunningServer;
  let key: string;
  let served: ServedEngine;
  beforeAll(async () => {
    ({ engine, server, key } = served = await serveFreshEngine('professional', [], { bodyBounds: { stallSeconds: 1, minBytesPerSecond: 200, maxSeconds: 3 } }));
  });
  afterAll(() => served.close());

  /** Sends `chunk` every `gapMs` until the server answers or closes; resolves with the answer and when it came. */
  async function sendSlowly(chunk: string, gapMs: number, length: number) {
    const connection = await RawConnection.open(server.url);
    const started = Date.now();
    const host = connection.host;
    connection.write(`POST /api/folders HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"name":"`);
    const timer = setInterval(() => connection.write(chunk), gapMs);
    try {
      const answer = await connection.response(15_000);
      const answeredAfterMs = Date.now() - started;
      await connection.closed;
      return { answer, answeredAfterMs, closedBy: connection.closedBy };
    } finally {
      clearInterval(timer);
      connection.destroy();
    }
  }

  it('bounds the rest of a body trickled after an early 421, as any other body', async () => {
    const connection = await RawConnection.open(server.url);
    const trickle = setInterval(() => connection.write('a'), 500);
    try {
      connection.write(`POST /api/folders HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
      expect((await connection.response())?.status).toBe(421);
      // Two bytes a second, under the 200 a second minimum: the server lets the socket go within its bounds.
      await Promise.race([connection.closed, new Promise((resolve) => setTimeout(resolve, 8_000))]);
      expect(connection.closedBy).toBeDefined();
    } finally {
      clearInterval(trickle);
      connection.destroy();
    }
  });

  it('answers a body trickling below the minimum rate with 408 and frees the connection', async () => {
    // A byte every 100 ms keeps the socket busy (never 1 s without a byte) but is 10 bytes a second.
    const { answer, answeredAfterMs } = await sendSlowly('a', 100, 10_000);
    expect(answer?.status).toBe(408);
    expect(answer?.headers.connection).toBe('close');
    expect(JSON.parse(answer!.body)).toMatchObject({ success: false, code: 'request_timeout', error: expect.stringMatching(/too slowly .*at least 200 bytes a second/) });
    expect(answeredAfterMs).toBeLessThan(3_000);
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM folders').get()).toEqual({ n: 0 });
  });

  it('answers a body that moves fast enough but never ends with 408 at the whole-body bound', async () => {
    // 500 bytes a second, well above the minimum rate, of a body declared 1 MB long.
    const { answer, answeredAfterMs } = await sendSlowly('b'.repeat(50), 100, 1_000_000);
    expect(answer?.status).toBe(408);
    expect(JSON.parse(answer!.body).error).toMatch(/took longer than 3 s/);
    expect(answeredAfterMs).toBeGreaterThanOrEqual(2_900);
    expect(answeredAfterMs).toBeLessThan(6_000);
  });
});

describe('serve: refusals of the HTTP layer in the service\'s error shape', () => {
  let engine: Engine;
  let server: RunningServer;
  let key: string;
  let served: ServedEngine;
  beforeAll(async () => {
    ({ engine, server, key } = served = await serveFreshEngine('professional', []));
  });
  afterAll(() => served.close());

  async function exchange(request: (host: string) => string) {
    const connection = await RawConnection.open(server.url);
    try {
      connection.write(request(connection.host));
      const answer = await connection.response();
      expect(answer, 'an answer').toBeDefined();
      expect(answer!.headers['content-type']).toMatch(/^application\/json/);
      return { status: answer!.status, body: JSON.parse(answer!.body) as { success: boolean; error: string; code: string }, connection: answer!.headers.connection };
    } finally {
      connection.destroy();
    }
  }

  it.each([
    ['headers too large', (host: string) => `GET /api/folders HTTP/1.1\r\nHost: ${host}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'invalid_request', /header fields too large/],
    ['an unknown method', (host: string) => `FROB /api/folders HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 501, 'not_implemented', /Unknown HTTP method/],
    ['both Content-Length and chunked', (host: string) => `POST /api/folders HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n`, 400, 'invalid_request', /Invalid request/],
    ['an unsupported HTTP version', (host: string) => `GET /api/folders HTTP/7.0\r\nHost: ${host}\r\n\r\n`, 505, 'invalid_request', /version not supported/],
  ])('answers %s with the error body', async (_, request, status, code, message) => {
    const answer = await exchange(request);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ success: false, code, error: expect.stringMatching(message) });
    expect(answer.connection).toBe('close');
  });

  it('answers malformed chunked framing with the error body', async () => {
    const answer = await exchange(
      (host) => `POST /api/folders HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, code: 'invalid_request', error: expect.stringMatching(/chunked body is malformed/) });
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM folders').get()).toEqual({ n: 0 });
  });

  it('answers a path with no endpoint, or a method the path does not take, with a 404 naming what exists', async () => {
    expect((await exchange((host) => `GET /nowhere HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).body).toMatchObject({ success: false, code: 'not_found' });
    const wrongMethod = await exchange((host) => `OPTIONS /api/folders HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body.error).toBe('No endpoint OPTIONS /api/folders: that path takes GET, POST.');
  });
});

describe('serve: a short body refused before it was read', () => {
  let engine: Engine;
  let server: RunningServer;
  let key: string;
  let served: ServedEngine;
  beforeAll(async () => {
    ({ engine, server, key } = served = await serveFreshEngine('ultimate', ['generations']));
  });
  afterAll(() => served.close());

  it('answers a 401 (sent before the body is read) and the next request on the socket, even when the body comes late', async () => {
    const connection = await RawConnection.open(server.url);
    try {
      const body = JSON.stringify({ name: 'x'.repeat(5_000) });
      connection.write(`POST /api/folders HTTP/1.1\r\nHost: ${connection.host}\r\nAuthorization: Bearer tk_wrong\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
      const refused = await connection.response();
      expect(refused?.status).toBe(401);
      connection.write(body);
      connection.write(getRequest(connection.host, '/api/folders', key));
      expect((await connection.response(3_000))?.status).toBe(200);
    } finally {
      connection.destroy();
    }
  });
});
