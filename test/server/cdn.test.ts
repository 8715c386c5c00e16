/**
 * serve's /cdn/ for downloads: attachment with the title's name (ASCII fallback plus filename*),
 * the right type and length, and byte ranges so a broken transfer resumes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdnDir, databaseFile, defaultKeyFile } from '../../src/engine/paths.js';
import { attachment, parseRange } from '../../src/server/cdn.js';
import { RawConnection } from '../support/raw-http.js';
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

  it('ignores an invalid range (last before first) with the whole file, and reads the unit in any case', async () => {
    const backwards = await fetch(url, { headers: { range: 'bytes=99-0' } });
    expect(backwards.status).toBe(200);
    expect((await backwards.arrayBuffer()).byteLength).toBe(size);
    const upper = await fetch(url, { headers: { range: 'BYTES=0-4' } });
    expect(upper.status).toBe(206);
    expect((await upper.arrayBuffer()).byteLength).toBe(5);
  });

  it('answers conditional requests for an unchanged file with 304 and no body', async () => {
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const byTag = await fetch(url, { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get('etag')).toBe(etag);
    expect(await byTag.text()).toBe('');
    const byDate = await fetch(url, { headers: { 'if-modified-since': first.headers.get('last-modified')! } });
    expect(byDate.status).toBe(304);
    // If-None-Match wins: a tag that differs means the file is sent, whatever the date says.
    const changed = await fetch(url, { headers: { 'if-none-match': '"other"', 'if-modified-since': first.headers.get('last-modified')! } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
    const older = await fetch(url, { headers: { 'if-modified-since': new Date(Date.parse(first.headers.get('last-modified')!) - 60_000).toUTCString() } });
    expect(older.status).toBe(200);
    await older.arrayBuffer();
  });

  it('answers a non-canonical spelling of a path with 404, never the file under another folder\'s headers', async () => {
    const served = new URL(url).pathname; // /cdn/downloads/<id>/<variant>/<name>
    const rest = served.slice('/cdn/downloads/'.length);
    for (const variant of [
      served.replace('/cdn/downloads/', '/cdn//downloads/'),
      served.replace('/cdn/downloads/', '/cdn/./downloads/'),
      served.replace('/cdn/downloads/', '/cdn/downloads//'),
      `/cdn/audio/..%2fdownloads/${rest}`,
      `/cdn/audio/%2e%2e/downloads/${rest}`,
      `/cdn/downloads/${rest.replace('/', '/./')}`,
    ]) {
      // Sent as written: fetch would tidy `./` and `..` away before sending.
      const connection = await RawConnection.open(harness.baseUrl!);
      connection.write(`GET ${variant} HTTP/1.1\r\nHost: ${connection.host}\r\n\r\n`);
      const response = await connection.response();
      connection.destroy();
      expect(response?.status, variant).toBe(404);
      expect(response?.headers['cache-control'] ?? '', variant).not.toMatch(/immutable/);
    }
  });

  it('never follows a link out of the CDN folder, nor serves hidden or temporary files', async () => {
    const dataDir = harness.engine.dataDir;
    const downloads = path.join(cdnDir(dataDir), 'downloads');
    const outside = path.join(dataDir, 'outside');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(defaultKeyFile(harness.engine.dataDir), path.join(downloads, 'key.srt'));
    fs.symlinkSync(databaseFile(dataDir), path.join(downloads, 'db.mp4'));
    fs.symlinkSync('/etc/passwd', path.join(downloads, 'passwd.srt'));
    fs.symlinkSync(outside, path.join(downloads, 'linked-dir'));
    fs.symlinkSync(outside, path.join(cdnDir(dataDir), 'audio-link'));
    fs.writeFileSync(path.join(downloads, '.hidden.srt'), 'hidden');
    fs.writeFileSync(path.join(downloads, 'half.srt.abc123.tmp'), 'half');
    (await harness.engine.defaultKey());
    for (const name of ['downloads/key.srt', 'downloads/db.mp4', 'downloads/passwd.srt', 'downloads/linked-dir/secret.txt', 'audio-link/secret.txt', 'downloads/.hidden.srt', 'downloads/half.srt.abc123.tmp']) {
      const response = await fetch(`${harness.baseUrl}/cdn/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.text(), name).not.toMatch(/secret|root:|tk_|SQLite|hidden|half/);
    }
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
    // RFC 9110 §14.1.1: a last position before the first makes the range invalid, so it is ignored.
    expect(parseRange('bytes=5-2', 1000)).toBeUndefined();
    expect(parseRange('bytes=99-0', 1000)).toBeUndefined();
    expect(parseRange('Bytes=0-9', 1000)).toEqual({ start: 0, end: 9 });
    expect(parseRange('BYTES = 10-', 20)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-', 0)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeUndefined();
    expect(parseRange('items=0-1', 1000)).toBeUndefined();
    expect(parseRange(undefined, 1000)).toBeUndefined();
  });
});
