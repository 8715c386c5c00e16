/**
 * `serve` under hostile or careless clients: request bodies that stall (408, then closed) while
 * slow uploads and long-polls run to the end, many stalled connections at once, and a request log
 * that never carries a key.
 */
import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorAnswers } from '../../src/core/route-statuses.js';
import { RemoteService } from '../../src/remote/remote-service.js';
import type { Engine } from '../../src/engine/engine.js';
import type { RunningServer } from '../../src/server/serve.js';
import { setJobWork } from '../support/channel-fixtures.js';
import { BIN } from '../support/cli.js';
import { tempDataDir } from '../support/engines.js';
import { serveFreshEngine, type ServedEngine } from '../support/served-engine.js';
import { RawConnection } from '../support/raw-http.js';

/** A raw HTTP/1.1 exchange: writes `parts` with `gapMs` between them, resolves with what came back and when the socket closed. */
function rawExchange(url: string, parts: string[], gapMs = 0): Promise<{ text: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    socket.on('connect', async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0 && gapMs) await sleep(gapMs);
        if (socket.destroyed) return;
        socket.write(part);
      }
    });
  });
}

const head = (url: string, path: string, key: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;

describe('serve: stalled request bodies', () => {
  let engine: Engine;
  let server: RunningServer;
  let key: string;
  let served: ServedEngine;
  beforeAll(async () => {
    ({ engine, server, key } = served = await serveFreshEngine('professional', [], { bodyBounds: { stallSeconds: 1, minBytesPerSecond: 8 } }));
  });
  afterAll(() => served.close());

  it('answers 408 and closes a request whose body stops arriving', async () => {
    const { text, closedAfterMs } = await rawExchange(server.url, [head(server.url, '/api/folders', key, 100), '{"name":']);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/connection: close/i);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code: string; error: string };
    expect(body).toMatchObject({ success: false, code: 'request_timeout' });
    expect(body.error).toMatch(/stopped arriving/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(5_000);
    expect(engine.db.prepare('SELECT COUNT(*) AS n FROM folders').get()).toEqual({ n: 0 });
    // The published contract says so too.
    expect(errorAnswers('folders.create').map((answer) => answer.status)).toContain(408);
  });

  it('lets a slow upload that keeps moving finish, however long it takes in all', async () => {
    // Padded with spaces: long enough to take seconds in eight-byte pieces, with no field the route does not take.
    const body = `{"name":${' '.repeat(40)}"Slow but steady"}`;
    const chunks = body.match(/.{1,8}/g)!;
    // Eight bytes every 300 ms: about 3 s in all, three times the stall limit, never idle for it.
    const { text } = await rawExchange(server.url, [head(server.url, '/api/folders', key, Buffer.byteLength(body)), ...chunks], 300);
    expect(text).toMatch(/^HTTP\/1\.1 201 /);
    expect(text).toMatch(/Slow but steady/);
  });

  it('never cuts a long-poll, which waits after its request has arrived', async () => {
    const client = new RemoteService({ baseUrl: server.url, apiKey: key, maxRetries: 0 });
    try {
      await setJobWork(engine, 60_000);
      const channel = (await engine.platform()).sampleChannels(1)[0]!.channel_id;
      const { job_id } = await client.call('channels.process', { channel, type: 'shorts' });
      const started = Date.now();
      const polled = await client.call('channels.processStatus', { job_id, wait_seconds: 3 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(2_500);
      expect(['queued', 'running']).toContain(polled.status);
    } finally {
      await client.close();
    }
  });

  it('keeps answering while many stalled connections are open', async () => {
    const stalled = Array.from({ length: 200 }, () => rawExchange(server.url, [head(server.url, '/api/folders', key, 100), '{']));
    await sleep(200);
    const started = Date.now();
    const health = await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${key}` } });
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1_000);
    const answers = await Promise.all(stalled);
    expect(answers.every((answer) => /^HTTP\/1\.1 408 /.test(answer.text))).toBe(true);
  });
});

describe('serve --log: no key in any line', () => {
  it('logs every request without the key, however it was sent', async () => {
    const dataDir = tempDataDir();
    const env = { TUBEKIT_DATA_DIR: dataDir, TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '', NO_COLOR: '1' };
    const created = await execa('node', [BIN, 'engine', 'keys', 'create', '--plan', 'professional'], { env });
    const key = created.stdout.trim();
    expect(key).toMatch(/^tk_/);
    const server = execa('node', [BIN, 'serve', '--port', '0', '--log', '--alerts-every', '0', '--allowed-host', 'files.example.org'], { env, reject: false });
    try {
      const url = await new Promise<string>((resolve) => server.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
      await fetch(`${url}/api/folders?api_key=${key}`);
      // --allowed-host: that name is answered (and used in URLs), any other is refused.
      const servers = async (host: string) => {
        const connection = await RawConnection.open(url);
        connection.write(`GET /api/openapi.json HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        const answer = await connection.response();
        connection.destroy();
        return answer?.status === 200 ? JSON.parse(answer.body).servers[0].url : answer?.status;
      };
      expect(await servers('files.example.org')).toBe('http://files.example.org');
      expect(await servers('elsewhere.example.org')).toBe(421);
      await fetch(`${url}/api/no-such-route?x=1&api_key=${key}&y=2`);
      await fetch(`${url}/api/folders`, { headers: { authorization: `Bearer ${key}` } });
      await fetch(`${url}/api/folders?api_key=${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"name": "${key}` });
      const form = new FormData();
      form.append('api_key', key);
      form.append('script', 'hello');
      await fetch(`${url}/api/generate-simple`, { method: 'POST', body: form });
      await sleep(200);
    } finally {
      server.kill('SIGTERM');
    }
    const { stderr } = await server;
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(stderr).toMatch(/no-such-route\?x=1&api_key=\[redacted\]&y=2/);
    expect(stderr).toMatch(/"statusCode":404/);
    expect(stderr.split('\n').filter((line) => line.includes('"url"')).length).toBeGreaterThanOrEqual(5);
    expect(stderr).not.toContain(key);
    expect(stderr).not.toContain(key.slice(3));
  });
});
