import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteService } from '../../src/remote/remote-service.js';
import { failure } from '../support/engines.js';

type Reply = { status: number; body: unknown; headers?: Record<string, string>; raw?: string };

/** A scripted server: answers each request with the next reply and fails the test on extra requests. */
async function scripted(replies: Reply[]) {
  const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const reply = replies.shift();
      if (!reply) {
        response.writeHead(599).end('unexpected request');
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      response.end(reply.raw ?? JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { baseUrl, seen, left: () => replies.length };
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const folders = { success: true, count: 0, folders: [] };
const CHANNEL = 'UCnjgVTsmU7Ql4Vzmi0HEN8Q';

/** A server that accepts connections and requests but never answers (until closed). */
async function silent() {
  let requests = 0;
  const server = http.createServer(() => {
    requests += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  server.closeAllConnections ??= () => {};
  const close = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    server.closeAllConnections();
    return close(callback);
  }) as typeof server.close;
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

describe('remote client', () => {
  it('builds requests from the route table: path params, JSON body, Bearer key, user agent', async () => {
    const server = await scripted([{ status: 200, body: { success: true, folder: { id: 7, name: 'X', channel_count: 0, created_at: '' } } }]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'tk_secret_key_value' });
    await service.call('folders.rename', { id: 7, name: 'X' });
    expect(server.seen[0]).toMatchObject({ method: 'PATCH', url: '/api/folders/7', body: '{"name":"X"}' });
    expect(server.seen[0]!.headers.authorization).toBe('Bearer tk_secret_key_value');
    expect(server.seen[0]!.headers['user-agent']).toMatch(/^tubekit\//);
  });

  it('puts query routes in the query string, lists comma-joined', async () => {
    const server = await scripted([{ status: 200, body: { success: true, page: 1, per_page: 25, total: 0, videos: [] } }]);
    const service = new RemoteService({ baseUrl: `${server.baseUrl}/`, apiKey: 'k' });
    await service.call('collabs.feed', { days: 3, channel_ids: ['UCa', 'UCb'] });
    expect(server.seen[0]!.url).toBe('/api/collabs/feed?days=3&channel_ids=UCa%2CUCb');
  });

  it('leaves query and form fields at their default out, and sends true booleans as 1', async () => {
    const cms = { success: true, channel_id: CHANNEL, status: 'not_managed', source: 'index' };
    const server = await scripted([
      { status: 200, body: cms },
      { status: 200, body: cms },
      { status: 200, body: { success: true } },
      { status: 200, body: { success: true, page: 1, per_page: 50, total: 0, channels: [] } },
      { status: 200, body: { success: true, page: 2, per_page: 50, total: 0, channels: [] } },
      { status: 200, body: { success: true, job_id: 'j', status: 'pending' } },
    ]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k' });
    await service.call('cms.check', { channel_id: CHANNEL, refresh: false, full_network: false });
    await service.call('cms.check', { channel_id: CHANNEL, refresh: true, full_network: 'true' });
    await service.call('monetization.external', { channel_id: CHANNEL, skip_live: false });
    await service.call('alerts.triggered', { page: 1, per_page: 50, history: false });
    await service.call('alerts.triggered', { page: 2, history: true });
    await service.call('generate', { script: 'hi', voice_id: 'v', provider: 'stealth' });
    expect(server.seen.slice(0, 5).map((request) => request.url)).toEqual([
      `/api/channel-cms/${CHANNEL}`,
      `/api/channel-cms/${CHANNEL}?refresh=1&full_network=1`,
      `/api/channel-external-monetization/${CHANNEL}`,
      '/api/alerts/triggered',
      '/api/alerts/triggered?page=2&history=1',
    ]);
    // A form field at its default (provider=stealth) is left out as well; the others travel.
    expect(server.seen[5]!.body).toContain('name="script"');
    expect(server.seen[5]!.body).not.toContain('name="provider"');
  });

  it('keeps a non-default false: a form field whose default is true', async () => {
    const server = await scripted([{ status: 200, body: { success: true, voice: {} } }]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k' });
    const audio_file = { filename: 'me.wav', contentType: 'audio/wav', data: Buffer.from('RIFF') };
    await service.call('voices.alt.clone', { voice_name: 'Me', audio_file, need_noise_reduction: false });
    expect(server.seen[0]!.body).toMatch(/name="need_noise_reduction"\r\n\r\nfalse\r\n/);
  });

  it('retries a GET after a 429, honouring the "Try again in N s" text', async () => {
    const server = await scripted([
      { status: 429, body: { success: false, error: 'Rate limit exceeded (30 requests/min). Try again in 1s.' } },
      { status: 200, body: folders },
    ]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k' });
    const started = Date.now();
    expect(await service.call('folders.list', {})).toEqual(folders);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.left()).toBe(0);
  });

  it('retries a GET after a 5xx, and gives up after the bounded number of tries', async () => {
    const server = await scripted([
      { status: 503, body: { error: 'down' } },
      { status: 502, body: { error: 'down' } },
      { status: 500, body: { error: 'still down' } },
    ]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 2 });
    const error = await failure(service.call('folders.list', {}));
    expect(error).toMatchObject({ status: 500, message: 'still down' });
    expect(server.seen).toHaveLength(3);
  });

  it('never retries a non-idempotent POST', async () => {
    const server = await scripted([{ status: 503, body: { error: 'down' } }]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k' });
    expect((await failure(service.call('folders.create', { name: 'X' }))).status).toBe(503);
    expect(server.seen).toHaveLength(1);
  });

  it('retries a POST that carries an idempotency key', async () => {
    const accepted = { success: true, job_id: 1, status: 'queued', type: 'shorts', channel_input: 'x', resolved_channel_id: 'UC', requested_at: '' };
    const server = await scripted([{ status: 503, body: { error: 'down' } }, { status: 200, body: accepted }]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 1 });
    await service.call('channels.process', { channel: 'x', type: 'shorts', idempotency_key: 'abc' });
    expect(server.seen).toHaveLength(2);
  });

  it('reads error bodies: error, then message, code and Retry-After', async () => {
    const server = await scripted([{ status: 404, body: { message: 'Job not found' } }]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    expect(await failure(service.call('jobs.status', { job_id: 'x' }))).toMatchObject({ status: 404, code: 'not_found', message: 'Job not found' });
  });

  it('says clearly when the host is unreachable (a 503-class failure)', async () => {
    const service = new RemoteService({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', maxRetries: 0 });
    const error = await failure(service.call('folders.list', {}));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/Could not reach/);
  });

  it('traces requests without ever printing the key', async () => {
    const server = await scripted([{ status: 200, body: folders }]);
    const lines: string[] = [];
    const key = 'tk_abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    const service = new RemoteService({ baseUrl: `${server.baseUrl}/?api_key=${key}`, apiKey: key, trace: (line) => lines.push(line) });
    await service.call('folders.list', {});
    expect(lines.join('\n')).toMatch(/GET/);
    expect(lines.join('\n')).not.toContain(key.slice(3));
  });

  it('sends the alt provider under its configured wire name', async () => {
    const server = await scripted([{ status: 200, body: { success: true, job_id: 'j', status: 'pending' } }]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k', altProviderName: 'minimax' });
    await service.call('generate', { script: 'hi', voice_id: 'v', provider: 'alt' });
    expect(server.seen[0]!.body).toContain('minimax');
    expect(server.seen[0]!.headers['content-type']).toMatch(/multipart\/form-data/);
  });

  it('calls the alt voice paths under the configured wire name, and under alt without one', async () => {
    const voices = { success: true, voices: [] };
    const named = await scripted([{ status: 200, body: voices }, { status: 200, body: { success: true } }]);
    const minimax = new RemoteService({ baseUrl: named.baseUrl, apiKey: 'k', altProviderName: 'minimax' });
    await minimax.call('voices.alt.list', {});
    await minimax.call('voices.alt.delete', { voice_id: 'alt_1' });
    expect(named.seen.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /api/voices/minimax', 'DELETE /api/voices/minimax/alt_1']);
    const plain = await scripted([{ status: 200, body: voices }]);
    await new RemoteService({ baseUrl: plain.baseUrl, apiKey: 'k' }).call('voices.alt.list', {});
    expect(plain.seen[0]!.url).toBe('/api/voices/alt');
  });

  it('bounds a call to a server that never answers by its time, and says so in words', async () => {
    const server = await silent();
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 600 });
    const started = Date.now();
    const error = await failure(service.call('folders.list', {}));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error).toMatchObject({ status: 504, code: 'timeout', message: `The service at ${server.baseUrl} did not answer within 0.6 s.` });
    expect(error.hint).toMatch(/--request-timeout/);
  });

  it('counts retries inside the same bound', async () => {
    const server = await scripted(Array.from({ length: 20 }, () => ({ status: 503, body: { error: 'down' } })));
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 1200, maxRetries: 20 });
    const started = Date.now();
    const error = await failure(service.call('folders.list', {}));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error.status).toBe(503);
    expect(server.seen.length).toBeGreaterThan(1);
  });

  it('gives each route a bound that fits it, and a set timeout to every route', () => {
    const fitted = new RemoteService({ baseUrl: 'http://127.0.0.1:9' });
    expect(fitted.budgetMs('folders.list')).toBe(30_000);
    expect(fitted.budgetMs('cms.check')).toBeGreaterThan(60_000);
    expect(fitted.budgetMs('monetization.ads')).toBeGreaterThan(60_000);
    expect(fitted.budgetMs('monetization.external')).toBeGreaterThan(60_000);
    expect(fitted.budgetMs('download')).toBeGreaterThanOrEqual(4 * 60_000);
    expect(fitted.budgetMs('jobs.status', 20)).toBe(50_000);
    const set = new RemoteService({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 3000 });
    expect(set.budgetMs('download')).toBe(3000);
    expect(set.budgetMs('channels.processStatus', 30)).toBe(33_000);
  });

  it('says when the base URL answers with an HTML page instead of the service\'s JSON', async () => {
    const page = '<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1>' + 'x'.repeat(5000) + '</body></html>';
    const server = await scripted([
      { status: 502, body: null, raw: page, headers: { 'content-type': 'text/html; charset=utf-8' } },
      { status: 200, body: null, raw: page, headers: { 'content-type': 'text/html' } },
    ]);
    const service = new RemoteService({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const failed = await failure(service.call('folders.list', {}));
    expect(failed).toMatchObject({ status: 502, code: 'unexpected_response' });
    expect(failed.message).toBe(`The base URL ${server.baseUrl} did not answer like the service: HTTP 502 with text/html ("502 Bad Gateway"), not a JSON body.`);
    const ok = await failure(service.call('folders.list', {}));
    expect(ok.message).toMatch(/HTTP 200 with text\/html/);
    expect(ok.message.length).toBeLessThan(300);
  });
});
