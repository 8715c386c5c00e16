/**
 * serve's /cdn/ for downloads: attachment with the title's name (ASCII fallback plus filename*),
 * the right type and length, and byte ranges so a broken transfer resumes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachment, parseRange } from '../../src/server/cdn.js';
import { createHarness, type EngineHarness } from '../support/engines.js';

describe('serve: download files', () => {
  let harness: EngineHarness;
  let close: () => Promise<void>;
  let url: string;
  let size: number;
  let title: string;
  beforeAll(async () => {
    ({ harness, close } = await createHarness('remote', { world: { seed: 1, channels: 300 } }));
    // A video whose title is not plain ASCII, with a transcript.
    const world = await harness.engine.platform();
    const video = world
      .sampleChannels(300)
      .flatMap((channel) => world.channelVideos(channel))
      .find((candidate) => candidate.kind !== 'upcoming' && /[^\x20-\x7e]/.test(candidate.title) && world.transcript(candidate.video_id))!;
    const answer = await harness.as('ultimate').call('download', { video_url: `https://youtu.be/${video.video_id}`, format: 'subtitles' });
    ({ download_url: url, size_bytes: size, title } = answer);
  });
  afterAll(() => close());

  it('serves a download as an attachment named after the title, with its type and length', async () => {
    expect(url.startsWith(`${harness.baseUrl}/cdn/downloads/`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(Number(response.headers.get('content-length'))).toBe(size);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+\.en\.srt"; filename\*=UTF-8''\S+$/);
    const served = decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(disposition)![1]!);
    expect(served).toBe(decodeURIComponent(url.split('/').pop()!));
    expect(served.startsWith(title.replace(/[<>:"/\\|?*]+/g, ' ').replace(/\s+/g, ' ').trim().replace(/[. ]+$/, ''))).toBe(true);
    expect((await response.arrayBuffer()).byteLength).toBe(size);
  });

  it('answers a byte range with 206, past the end with 416, and a stale If-Range with the whole file', async () => {
    const whole = Buffer.from(await (await fetch(url)).arrayBuffer());
    const part = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${size}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 20));
    const tail = await fetch(url, { headers: { range: `bytes=${size - 5}-` } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(whole.subarray(size - 5));
    const beyond = await fetch(url, { headers: { range: `bytes=${size}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
    const etag = part.headers.get('etag')!;
    expect((await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': etag } })).status).toBe(206);
    const stale = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': '"other"' } });
    expect(stale.status).toBe(200);
    expect(Number(stale.headers.get('content-length'))).toBe(size);
    await stale.arrayBuffer();
    expect((await fetch(url, { method: 'HEAD' })).headers.get('content-length')).toBe(String(size));
  });

  it('keeps unknown and escaping paths out with 404', async () => {
    expect((await fetch(`${harness.baseUrl}/cdn/downloads/nothing.mp4`)).status).toBe(404);
    expect((await fetch(`${harness.baseUrl}/cdn/..%2f..%2ftubekit.db`)).status).toBe(404);
  });
});

describe('Content-Disposition and Range parsing', () => {
  it('keeps ASCII names as they are and adds filename* for any other', () => {
    expect(attachment('Leg Day (720p).mp4')).toBe('attachment; filename="Leg Day (720p).mp4"');
    expect(attachment('¿Vale la pena (1m30s-2m).mp3')).toBe(
      `attachment; filename="_Vale la pena (1m30s-2m).mp3"; filename*=UTF-8''%C2%BFVale%20la%20pena%20%281m30s-2m%29.mp3`,
    );
    expect(attachment('Café.mp4')).toBe(`attachment; filename="Cafe.mp4"; filename*=UTF-8''Caf%C3%A9.mp4`);
    expect(attachment('솔직 리뷰 "2026".srt')).toMatch(/^attachment; filename="__ __ _2026_\.srt"; filename\*=UTF-8''%EC%86%94/);
  });

  it('reads single ranges and ignores what it cannot honour', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeUndefined();
    expect(parseRange('items=0-1', 1000)).toBeUndefined();
    expect(parseRange(undefined, 1000)).toBeUndefined();
  });
});
