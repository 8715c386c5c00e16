import fs from 'node:fs';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { RemoteService } from '../../src/remote/remote-service.js';
import { startServer } from '../../src/server/serve.js';
import { setJobWork } from '../support/channel-fixtures.js';
import { createHarness, tempDataDir, type EngineHarness } from '../support/engines.js';
import { RawConnection } from '../support/raw-http.js';

describe('serve: HTTP behaviour', () => {
  let harness: EngineHarness;
  let close: () => Promise<void>;
  let key: string;
  beforeAll(async () => {
    ({ harness, close } = await createHarness('remote'));
    key = (await harness.engine.identity.createUserWithKey('starter', [])).key;
  });
  afterAll(() => close());

  const url = (path: string) => `${harness.baseUrl}${path}`;

  it('accepts the key as a Bearer header, as ?api_key=, and as a multipart api_key field', async () => {
    expect((await fetch(url('/api/folders'), { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await fetch(url(`/api/folders?api_key=${key}`))).status).toBe(200);
    const pro = (await harness.engine.identity.createUserWithKey('professional', [])).key;
    const form = new FormData();
    form.append('api_key', pro);
    form.append('script', 'hello');
    const response = await fetch(url('/api/generate-simple'), { method: 'POST', body: form });
    expect(response.status).not.toBe(401);
  });

  it('answers 401 with the JSON error body when the key is missing', async () => {
    const response = await fetch(url('/api/folders'));
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toMatchObject({ success: false, code: 'unauthorized' });
    expect(body.error).toMatch(/API key/);
  });

  it('answers 401 before looking at the body when the key is missing or wrong', async () => {
    for (const headers of [{}, { authorization: 'Bearer tk_wrong' }] as Record<string, string>[]) {
      for (const body of ['{"name": ', undefined]) {
        const response = await fetch(url('/api/folders'), {
          method: 'POST',
          headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body,
        });
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ success: false, code: 'unauthorized' });
      }
    }
    const form = new FormData();
    form.append('script', 'hello');
    const upload = await fetch(url('/api/generate-simple'), { method: 'POST', body: form, headers: { authorization: 'Bearer tk_wrong' } });
    expect(upload.status).toBe(401);
  });

  it('names the field when a file is uploaded where a text field belongs', async () => {
    const pro = (await harness.engine.identity.createUserWithKey('professional', [])).key;
    const form = new FormData();
    form.append('script', new Blob(['Hello from a file.']), 'script.txt');
    form.append('voice_id', 'espeak-en-us');
    const response = await fetch(url('/api/generate-simple'), { method: 'POST', body: form, headers: { authorization: `Bearer ${pro}` } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/^Invalid request: script: send it as a form field/);
    expect((await harness.engine.jobs.queue.hasWaiting(['generation']))).toBe(false);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await fetch(url('/api/nope'), { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, code: 'not_found' });
  });

  it('answers a malformed JSON body with a JSON 400 that says so', async () => {
    const response = await fetch(url('/api/folders'), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/JSON/);
  });

  it('refuses a JSON endpoint called without a body', async () => {
    const response = await fetch(url('/api/folders'), { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/JSON/);
  });

  it('takes an empty body sent as application/json as no body (clients that set it on every request)', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await (await fetch(url('/api/folders'), { method: 'POST', headers, body: '{"name": "Deletable"}' })).json();
    const deleted = await fetch(url(`/api/folders/${created.folder.id}`), { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ success: true, unsaved_channels: 0 });
    const empty = await fetch(url('/api/folders'), { method: 'POST', headers, body: '' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatch(/JSON object body/);
  });

  it('publishes an OpenAPI document derived from the route table', async () => {
    const response = await fetch(url('/api/openapi.json'));
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/api/folders/{id}/channels');
    expect(document.paths['/api/folders'].post.responses['201']).toBeDefined();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    // Built once, but each answer names the address it was asked at.
    const again = await (await fetch(url('/api/openapi.json').replace('127.0.0.1', 'localhost'))).json();
    expect(document.servers).toEqual([{ url: new URL(url('/')).origin, description: expect.any(String) }]);
    expect(again.servers[0].url).toBe(new URL(url('/').replace('127.0.0.1', 'localhost')).origin);
    expect({ ...again, servers: [] }).toEqual({ ...document, servers: [] });
  });

  it('serves the health endpoint', async () => {
    const response = await fetch(url('/api/health'), { headers: { authorization: `Bearer ${key}` } });
    expect(await response.json()).toMatchObject({ status: 'healthy' });
  });
});

describe('serve: shutting down', () => {
  it('answers held long-polls at once and closes kept-alive connections, so close does not hang', async () => {
    const dataDir = tempDataDir();
    const engine = Engine.open({ dataDir });
    const server = await startServer({ engine, port: 0 });
    const client = new RemoteService({ baseUrl: server.url, apiKey: (await engine.identity.createUserWithKey('starter', [])).key, maxRetries: 0 });
    try {
      await setJobWork(engine, 20_000);
      const channel = (await engine.platform()).sampleChannels(1)[0]!.channel_id;
      const { job_id } = await client.call('channels.process', { channel, type: 'shorts' });
      const held = client.call('channels.processStatus', { job_id, wait_seconds: 30 });
      await sleep(200);
      const started = Date.now();
      await server.close();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(['queued', 'running']).toContain((await held).status);
    } finally {
      await client.close();
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('answers a request that arrives while shutting down with 503 in the service\'s error body', async () => {
    const dataDir = tempDataDir();
    const engine = Engine.open({ dataDir });
    const server = await startServer({ engine, port: 0 });
    const key = (await engine.identity.createUserWithKey('starter', [])).key;
    const connection = await RawConnection.open(server.url);
    try {
      // Headers half sent before shutdown, the rest after: the request is read while closing.
      connection.write(`GET /api/folders HTTP/1.1\r\nHost: ${connection.host}\r\n`);
      await sleep(100);
      const closing = server.close();
      await sleep(50);
      connection.write(`Authorization: Bearer ${key}\r\n\r\n`);
      const late = await connection.response();
      expect(late?.status).toBe(503);
      expect(late?.headers.connection).toBe('close');
      expect(JSON.parse(late!.body)).toMatchObject({ success: false, code: 'unavailable', error: expect.stringMatching(/shutting down/) });
      await closing;
    } finally {
      connection.destroy();
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('closes the connection of a request that was still arriving when shutdown began', async () => {
    const dataDir = tempDataDir();
    const engine = Engine.open({ dataDir });
    const server = await startServer({ engine, port: 0 });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const key = (await engine.identity.createUserWithKey('starter', [])).key;
      const request = http.request(`${server.url}/api/folders`, {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });
      const answered = new Promise<http.IncomingMessage>((resolve) => request.on('response', resolve));
      request.write('{"name": ');
      await sleep(100);
      const closing = server.close();
      request.end('"Late"}');
      const response = await answered;
      response.resume();
      expect(response.statusCode).toBe(201);
      expect(response.headers.connection).toBe('close');
      const started = Date.now();
      await closing;
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      agent.destroy();
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
