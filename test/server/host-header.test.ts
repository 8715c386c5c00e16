/**
 * The Host a request names is echoed into the URLs `serve` answers with (download_url, the
 * OpenAPI document's servers): only addresses the server listens on, or hosts it was told to
 * answer for, are accepted; any other is refused 421, and a configured CDN URL wins for files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { CDN_BASE_URL_SETTING } from '../../src/engine/features/public-url.js';
import type { RunningServer } from '../../src/server/serve.js';
import { RawConnection, type RawResponse } from '../support/raw-http.js';
import { serveFreshEngine, type ServedEngine } from '../support/served-engine.js';

describe('serve: the Host header', () => {
  let engine: Engine;
  let server: RunningServer;
  let key: string;
  let videoUrl: string;
  let served: ServedEngine;
  beforeAll(async () => {
    const seedWorld = async (opened: Engine) => {
      const world = await opened.reseedWorld({ seed: 1, channels: 200 });
      const video = world.sampleChannels(200).flatMap((channel) => world.channelVideos(channel)).find((candidate) => candidate.kind !== 'upcoming' && world.transcript(candidate.video_id))!;
      videoUrl = `https://youtu.be/${video.video_id}`;
    };
    ({ engine, server, key } = served = await serveFreshEngine('ultimate', ['generations'], { allowedHosts: ['files.example.org'], prepare: seedWorld }));
  });
  afterAll(() => served.close());

  /** One request with exactly this Host line (or none). */
  async function send(method: string, path: string, host: string | undefined, body?: string, version = '1.1'): Promise<RawResponse> {
    const connection = await RawConnection.open(server.url);
    try {
      const headers = [
        ...(host === undefined ? [] : [`Host: ${host}`]),
        `Authorization: Bearer ${key}`,
        ...(body === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]),
        'Connection: close',
      ];
      connection.write(`${method} ${path} HTTP/${version}\r\n${headers.join('\r\n')}\r\n\r\n${body ?? ''}`);
      return (await connection.response())!;
    } finally {
      connection.destroy();
    }
  }
  const download = (host: string | undefined, version?: string) =>
    send('POST', '/api/download-video', host, JSON.stringify({ video_url: videoUrl, format: 'subtitles' }), version);
  const port = () => new URL(server.url).port;

  it('refuses a host the server does not answer for, with 421, echoing it nowhere', async () => {
    for (const answer of [await download('evil.example'), await send('GET', '/api/openapi.json', `evil.example:${port()}`), await send('GET', '/cdn/audio/x.mp3', 'evil.example')]) {
      expect(answer.status).toBe(421);
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'misdirected_request', hint: expect.stringMatching(/--allowed-host/) });
      expect(answer.body).not.toContain('evil');
    }
  });

  it('builds URLs from an address the server listens on, localhost included', async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `LOCALHOST:${port()}`]) {
      const answer = await download(host);
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body).download_url.startsWith(`http://${host}/cdn/downloads/`)).toBe(true);
    }
    // The right name on another port is another server.
    expect((await download('127.0.0.1:1')).status).toBe(421);
  });

  it('accepts a host given with --allowed-host, and uses it', async () => {
    const answer = await download('files.example.org');
    expect(JSON.parse(answer.body).download_url.startsWith('http://files.example.org/cdn/downloads/')).toBe(true);
    const document = JSON.parse((await send('GET', '/api/openapi.json', 'files.example.org:8443')).body);
    expect(document.servers[0].url).toBe('http://files.example.org:8443');
  });

  it('answers HTTP/1.1 without a Host with the error body, and uses the listen address for HTTP/1.0', async () => {
    const missing = await download(undefined);
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toMatchObject({ success: false, code: 'invalid_request', error: expect.stringMatching(/Host header is missing/) });
    const old = await download(undefined, '1.0');
    expect(JSON.parse(old.body).download_url.startsWith(`${server.url}/cdn/downloads/`)).toBe(true);
  });

  it('uses the configured CDN URL for files whatever the Host', async () => {
    await engine.settings.set(CDN_BASE_URL_SETTING, 'https://cdn.example.net/files');
    try {
      const answer = await download(`localhost:${port()}`);
      expect(JSON.parse(answer.body).download_url.startsWith('https://cdn.example.net/files/downloads/')).toBe(true);
    } finally {
      engine.settings.delete(CDN_BASE_URL_SETTING);
    }
  });
});
