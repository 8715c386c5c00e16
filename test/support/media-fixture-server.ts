/**
 * The site's media side on 127.0.0.1, for live downloads: `/ytdlp/<id>.info.json` (yt-dlp's
 * metadata of a video, as the engine reads it with TUBEKIT_PLATFORM_ORIGIN set), whose stream and
 * caption URLs point back here: `/media/<file>` (byte ranges honoured, optionally throttled) and
 * `/captions/<id>.<lang>.vtt`. An answer other than 200 for the metadata stands for yt-dlp's error
 * output. Anything else is a 404, and every request is recorded.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { captionsVtt, CLIP_SECONDS, mediaStock, type MediaStock } from './media-fixtures.js';

export interface FixtureVideo {
  id: string;
  title?: string;
  /** Seconds the metadata says (the clips last CLIP_SECONDS; say more only for size-rule tests). */
  duration?: number;
  /** Stock clip names (media-fixtures.ts), or formats with sizes of their own (size-rule tests). */
  formats: Array<string | { stock: string; filesize?: number; tbr?: number; format_id?: string }>;
  humanCaptions?: boolean;
  autoCaptions?: boolean;
  /** Instead of metadata: this HTTP status and yt-dlp's error text. */
  error?: { status: number; text: string };
  liveStatus?: string;
  /** Stream URLs that answer 404 (the site's expired or refused media URLs). */
  brokenMedia?: boolean;
}

export interface MediaRequest {
  path: string;
  range?: string;
}

export interface MediaFixtureServer {
  origin: string;
  /** Every request, in order. */
  seen: MediaRequest[];
  /** Requests for media files (not metadata or captions). */
  mediaRequests(): MediaRequest[];
  add(video: FixtureVideo): void;
  /** Media answered at most this many bytes a second (0: as fast as possible). */
  throttle(bytesPerSecond: number): void;
  close(): Promise<void>;
}

const ITAG: Record<string, string> = { 'h264-360': '134', 'h264-480': '135', 'h264-720': '136', 'vp9-480': '244', 'h264-1440': '264', aac: '140', opus: '251', 'progressive-360': '18' };

export async function startMediaFixtureServer(options: { seconds?: number; stock?: string[] } = {}): Promise<MediaFixtureServer> {
  const seconds = options.seconds ?? CLIP_SECONDS;
  const { dir, clips } = await mediaStock(seconds, options.stock);
  const videos = new Map<string, FixtureVideo>();
  const seen: MediaRequest[] = [];
  let bytesPerSecond = 0;
  const sockets = new Set<import('node:net').Socket>();

  const infoOf = (video: FixtureVideo, origin: string) => {
    const formats = video.formats.map((entry) => {
      const spec = typeof entry === 'string' ? { stock: entry } : entry;
      const clip = clips.get(spec.stock);
      if (!clip) throw new Error(`no stock clip ${spec.stock}`);
      const format = formatOf(clip, origin, spec.format_id ?? ITAG[spec.stock] ?? spec.stock, spec.filesize ?? clip.size, spec.tbr);
      return video.brokenMedia ? { ...format, url: `${origin}/media/gone-${clip.file}` } : format;
    });
    const track = (lang: string) => [{ ext: 'vtt', url: `${origin}/captions/${video.id}.${lang}.vtt`, name: 'English' }];
    return {
      id: video.id,
      title: video.title ?? `Fixture ${video.id}`,
      channel_id: 'UCtubekitFixtureChannel1',
      channel: 'Fixture Channel',
      duration: video.duration ?? seconds,
      extractor: 'youtube',
      extractor_key: 'Youtube',
      // If the engine did not strip it, a failed fetch would come back here for the watch page: tests check it never does.
      webpage_url: `${origin}/watch?v=${video.id}`,
      live_status: video.liveStatus ?? 'not_live',
      is_live: video.liveStatus === 'is_live',
      _type: 'video',
      formats,
      subtitles: video.humanCaptions ? { en: track('en') } : {},
      automatic_captions: video.autoCaptions ? { en: track('en-auto') } : {},
    };
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    seen.push({ path: url.pathname, ...(req.headers.range ? { range: req.headers.range } : {}) });
    // The connectivity check's page (`tubekit doctor`).
    if (url.pathname === '/generate_204') return void res.writeHead(204).end();
    const info = /^\/ytdlp\/([\w-]{11})\.info\.json$/.exec(url.pathname);
    if (info) {
      const video = videos.get(info[1]!);
      if (!video) return void res.writeHead(404, { 'content-type': 'text/plain' }).end(`ERROR: [youtube] ${info[1]}: Video unavailable`);
      if (video.error) return void res.writeHead(video.error.status, { 'content-type': 'text/plain' }).end(video.error.text);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(infoOf(video, origin)));
    }
    const captions = /^\/captions\/([\w-]{11})\.(en|en-auto)\.vtt$/.exec(url.pathname);
    if (captions && videos.has(captions[1]!)) {
      const words = captions[2] === 'en' ? 'Human caption' : 'auto caption';
      return void res.writeHead(200, { 'content-type': 'text/vtt' }).end(captionsVtt(videos.get(captions[1]!)!.duration ?? seconds, words));
    }
    const media = /^\/media\/([\w.-]+)$/.exec(url.pathname);
    const file = media && [...clips.values()].some((clip) => clip.file === media[1]) ? path.join(dir, media[1]!) : null;
    if (!file) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    serveRange(file, req, res, bytesPerSecond);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    mediaRequests: () => seen.filter((request) => request.path.startsWith('/media/')),
    add: (video) => void videos.set(video.id, video),
    throttle: (rate) => void (bytesPerSecond = rate),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function formatOf(clip: MediaStock & { size: number }, origin: string, formatId: string, filesize: number, tbr?: number) {
  return {
    format_id: formatId,
    url: `${origin}/media/${clip.file}`,
    ext: clip.ext,
    protocol: 'http',
    vcodec: clip.vcodec,
    acodec: clip.acodec,
    width: clip.width,
    height: clip.height,
    fps: clip.height ? 10 : null,
    filesize,
    ...(tbr ? { tbr } : {}),
    format_note: clip.height ? `${clip.height}p` : 'audio',
  };
}

/** A file, whole or the range asked for (206), at most `rate` bytes a second when rate > 0. */
function serveRange(file: string, req: http.IncomingMessage, res: http.ServerResponse, rate: number): void {
  const size = fs.statSync(file).size;
  let start = 0;
  let end = size - 1;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    start = range[1] ? Number(range[1]) : size - Number(range[2]);
    end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size) return void res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
    res.writeHead(206, { 'content-type': 'application/octet-stream', 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}`, 'accept-ranges': 'bytes' });
  } else {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size, 'accept-ranges': 'bytes' });
  }
  if (req.method === 'HEAD') return void res.end();
  const stream = fs.createReadStream(file, { start, end, highWaterMark: rate > 0 ? Math.max(1024, Math.floor(rate / 10)) : 64 * 1024 });
  if (rate <= 0) return void stream.pipe(res);
  // Throttled: a chunk every tenth of a second.
  stream.on('data', (chunk) => {
    stream.pause();
    res.write(chunk, () => setTimeout(() => stream.resume(), 100));
  });
  stream.on('end', () => res.end());
  res.on('close', () => stream.destroy());
}
