/**
 * Every answer of the platform is read within a bound: an endless body, JSON nested without end and
 * malformed timed text each give a 502 (or the caller's "not understood"), never a process that
 * grows without limit or a 500.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { ANSWER_BOUNDS, nestsDeeper } from '../../../../../src/engine/platform/live/answer-bounds.js';
import { createLiveFetch } from '../../../../../src/engine/platform/live/live-fetch.js';
import { readYtdlpInfo } from '../../../../../src/engine/platform/live/media/ytdlp-info.js';
import { DEFAULT_NETWORK } from '../../../../../src/engine/platform/live/network-options.js';
import { parseTimedText } from '../../../../../src/engine/platform/live/timedtext.js';
import { caught } from '../../../../support/service-errors.js';

let server: http.Server | undefined;
afterEach(async () => {
  await stop();
});

async function stop(): Promise<void> {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
}

/** A server that streams `chunk` up to `total` bytes (or until the client goes) for every request. */
async function streaming(chunk: string, total: number, prefix = ''): Promise<{ origin: string; sent: () => number }> {
  let sent = 0;
  server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.write(prefix);
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    response.on('close', () => (sent = Math.min(sent, total)));
    pump();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent: () => sent };
}

const settings = (origin: string) => ({ ...DEFAULT_NETWORK, origin, requestsPerSecond: 1000, retries: 0 });

it('stops reading a platform page past its bound and answers 502 naming the bound', async () => {
  const fixture = await streaming('x'.repeat(64 * 1024), 10 * ANSWER_BOUNDS.page.bytes);
  const fetch = await createLiveFetch(settings(fixture.origin));
  const error = await caught(fetch('https://www.youtube.com/youtubei/v1/browse', { method: 'POST', body: '{}' }));
  expect(error.status).toBe(502);
  expect(error.message).toContain('16 MB bound for platform pages');
  // The rest was never read: the server stopped far short of what it would have sent.
  expect(fixture.sent()).toBeLessThan(3 * ANSWER_BOUNDS.page.bytes);
});

it('bounds a caption track by its own bound', async () => {
  const fixture = await streaming('y'.repeat(64 * 1024), 2 * ANSWER_BOUNDS.captions.bytes);
  const fetch = await createLiveFetch(settings(fixture.origin));
  const error = await caught(fetch('https://www.youtube.com/api/timedtext?v=aVideoId001&fmt=json3'));
  expect(error.status).toBe(502);
  expect(error.message).toContain('8 MB bound for caption tracks');
});

it('refuses JSON nested deeper than any real page with a 502', async () => {
  const fixture = await streaming('[', 100_000);
  const fetch = await createLiveFetch(settings(fixture.origin));
  const error = await caught(fetch('https://www.youtube.com/youtubei/v1/browse', { method: 'POST', body: '{}' }));
  expect(error.status).toBe(502);
  expect(error.message).toMatch(/nests deeper than 512 levels/);
  expect(nestsDeeper('{"a":"[[[[[[[[[[[[[[[[[[[["}', 3)).toBe(false);
  expect(nestsDeeper('{"a":"\\"[[[[", "b":[[[]]]}', 3)).toBe(true);
});

it('bounds yt-dlp metadata from the origin override, and its nesting', async () => {
  const tool = { command: 'yt-dlp-not-run', version: 'test', jsRuntimes: false } as never;
  const big = await streaming('z'.repeat(64 * 1024), 2 * ANSWER_BOUNDS.ytdlpInfo.bytes, '{"id":"aVideoId001","title":"');
  const error = await caught(readYtdlpInfo('aVideoId001', { tool, args: [], origin: big.origin }));
  expect(error.status).toBe(502);
  expect(error.message).toContain('32 MB bound for video metadata');
  await stop();
  const deep = await streaming('[', 50_000, '{"id":"aVideoId001","x":');
  const nested = await caught(readYtdlpInfo('aVideoId001', { tool, args: [], origin: deep.origin }));
  expect(nested.status).toBe(502);
  expect(nested.message).toMatch(/nests deeper/);
});

it('takes timed text with an entity that is no character as not understood, never a crash', () => {
  expect(parseTimedText('<timedtext format="3"><body><p t="0" d="1000">a &#99999999999; b</p></body></timedtext>')).toBeNull();
  expect(parseTimedText('<transcript><text start="0" dur="1">&amp;#x110000;</text></transcript>')).toBeNull();
  expect(parseTimedText('<transcript><text start="0" dur="1">caf&amp;#233;</text></transcript>')).toEqual([{ start: 0, end: 1, text: 'café' }]);
});
