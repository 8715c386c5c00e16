/**
 * Fetching files in the remote client against a CDN stand-in on another origin: no key, a
 * browser's user agent once ours is refused, and a transfer that breaks resumed with Range.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteService } from '../../src/remote/remote-service.js';
import { failure } from '../support/engines.js';

const FILE = randomBytes(600_000);

interface Seen {
  headers: http.IncomingHttpHeaders;
}

interface CdnBehaviour {
  /** Cut the connection after this many bytes on these request numbers (0-based). */
  breakAfter?: { requests: number[]; bytes: number };
  /** Refuse user agents that do not look like a browser. */
  browsersOnly?: boolean;
  /** Ignore Range headers. */
  noRanges?: boolean;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function cdn(behaviour: CdnBehaviour) {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    const number = seen.push({ headers: request.headers }) - 1;
    if (behaviour.browsersOnly && !request.headers['user-agent']?.startsWith('Mozilla/')) {
      response.writeHead(403).end('Forbidden');
      return;
    }
    const range = behaviour.noRanges ? null : /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    const body = FILE.subarray(start);
    response.writeHead(range ? 206 : 200, {
      'content-length': body.length,
      etag: '"v1"',
      ...(range ? { 'content-range': `bytes ${start}-${FILE.length - 1}/${FILE.length}` } : {}),
    });
    if (behaviour.breakAfter?.requests.includes(number)) {
      response.write(body.subarray(0, behaviour.breakAfter.bytes), () => setTimeout(() => response.destroy(), 20));
      return;
    }
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/clip.mp4`, seen };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** The client's API host is elsewhere: the CDN is another origin. */
const client = () => new RemoteService({ baseUrl: 'http://127.0.0.1:9/api-host', apiKey: 'tk_secret_key_value', maxRetries: 0 });

describe('remote client: fetching files', () => {
  it('never sends the API key with a file request', async () => {
    const server = await cdn({});
    expect((await readAll(await client().fetchFile(server.url))).equals(FILE)).toBe(true);
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
    expect(server.seen[0]!.headers['user-agent']).toMatch(/^tubekit\//);
  });

  it('retries as a browser when the CDN refuses its own user agent, without the key either time', async () => {
    const server = await cdn({ browsersOnly: true });
    expect((await readAll(await client().fetchFile(server.url))).equals(FILE)).toBe(true);
    expect(server.seen.map((request) => request.headers['user-agent']?.split('/')[0])).toEqual(['tubekit', 'Mozilla']);
    expect(server.seen.every((request) => request.headers.authorization === undefined)).toBe(true);
  });

  it('resumes a transfer that breaks with a Range request from the byte it reached', async () => {
    const server = await cdn({ breakAfter: { requests: [0, 1], bytes: 150_000 } });
    expect((await readAll(await client().fetchFile(server.url))).equals(FILE)).toBe(true);
    expect(server.seen).toHaveLength(3);
    const ranges = server.seen.slice(1).map((request) => Number(/^bytes=(\d+)-$/.exec(request.headers.range!)![1]));
    expect(ranges[0]).toBeGreaterThan(0);
    expect(ranges[1]).toBeGreaterThan(ranges[0]!);
    expect(server.seen[1]!.headers['if-range']).toBe('"v1"');
  });

  it('reads past what it has when the host ignores Range', async () => {
    const server = await cdn({ breakAfter: { requests: [0], bytes: 200_000 }, noRanges: true });
    expect((await readAll(await client().fetchFile(server.url))).equals(FILE)).toBe(true);
    expect(server.seen).toHaveLength(2);
  });

  it('gives up with a 503-style error when the transfer keeps breaking without progress', async () => {
    const server = await cdn({ breakAfter: { requests: [0, 1, 2, 3, 4, 5, 6, 7], bytes: 0 } });
    const error = await failure(readAll(await client().fetchFile(server.url)));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/kept breaking/);
  }, 20_000);

  it('reports a missing file with the CDN\'s status', async () => {
    const server = http.createServer((_request, response) => response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"No such file."}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const error = await failure(client().fetchFile(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`));
    expect(error).toMatchObject({ status: 404, message: 'No such file.' });
  });
});
