import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/core/routes.js';
import { filesUnder, wavSample } from '../support/audio-fixtures.js';
import { createHarness, type EngineHarness } from '../support/engines.js';

/** Every multipart path of the route table, aliases included. */
const multipartPaths = Object.values(routes)
  .filter((route) => route.encoding === 'multipart')
  .flatMap((route) => [route.path, ...(route.aliases ?? [])]);
const clonePaths = Object.values(routes)
  .filter((route) => route.encoding === 'multipart' && route.files !== undefined)
  .flatMap((route) => [route.path, ...(route.aliases ?? [])].map((url) => ({ url, file: Object.keys(route.files!)[0]! })));

const boundary = 'tubekit-test-boundary';
const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

describe('serve: malformed requests', () => {
  let harness: EngineHarness;
  let close: () => Promise<void>;
  let key: string;
  beforeAll(async () => {
    ({ harness, close } = await createHarness('remote'));
    key = (await harness.engine.identity.createUserWithKey('ultimate', ['generations'])).key;
  });
  afterAll(() => close());

  const post = (url: string, contentType: string, body: string | Buffer) =>
    fetch(`${harness.baseUrl}${url}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body });

  it.each(multipartPaths)('answers a multipart body without a boundary on %s with a JSON 400', async (url) => {
    const response = await post(url, 'multipart/form-data', 'x');
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ success: false, code: 'invalid_request' });
    expect(body.error).toMatch(/^Invalid request: the multipart body is malformed \(boundary not found\)/);
  });

  it.each(clonePaths)('answers a file part cut short on $url with a JSON 400 and stores nothing', async ({ url, file }) => {
    const head = `${field('displayName', 'Me')}${field('voice_name', 'Me')}--${boundary}\r\nContent-Disposition: form-data; name="${file}"; filename="me.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
    const response = await post(url, `multipart/form-data; boundary=${boundary}`, Buffer.concat([Buffer.from(head), wavSample(1).subarray(0, 4000)]));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ success: false, code: 'invalid_request' });
    expect(body.error).toMatch(/^Invalid request: the multipart body is malformed \(part terminated early/);
    expect(filesUnder(path.join(harness.engine.dataDir, 'samples'))).toEqual([]);
  });

  it('names a form field longer than 1 MB instead of cutting it', async () => {
    const form = `${field('voice_id', 'espeak-en-us')}${field('custom_title', 't'.repeat(1_100_000))}${field('script', 'Hello.')}--${boundary}--\r\n`;
    const response = await post('/api/generate-simple', `multipart/form-data; boundary=${boundary}`, form);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Invalid request: custom_title: the value is larger than 1 MB.');
    expect((await harness.engine.jobs.queue.hasWaiting(['generation']))).toBe(false);
  });

  it('refuses a form with more fields than any endpoint takes', async () => {
    const form = `${Array.from({ length: 60 }, (_, i) => field(`f${i}`, 'x')).join('')}--${boundary}--\r\n`;
    const response = await post('/api/generate-simple', `multipart/form-data; boundary=${boundary}`, form);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Invalid request: the form has more than 50 fields.');
  });

  it('answers a path that is not valid percent-encoding with the JSON 400, without echoing the key', async () => {
    for (const url of ['/api/folders/%ZZ', `/api/voices/alt/%E0%A4%A?api_key=${key}`]) {
      const response = await fetch(`${harness.baseUrl}${url}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(JSON.parse(text)).toMatchObject({ success: false, code: 'invalid_request', error: 'Invalid request: the URL path is not valid percent-encoding.' });
      expect(text).not.toContain(key);
    }
  });
});
