/**
 * Downloads: how fast a cached answer comes back (in-process and over serve, against a cheap
 * read), how long rendering takes per minute of media for each format (and for a whole hour),
 * and whether the CLI's memory stays flat while it saves a large file through serve.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { Service } from '../src/core/service.js';
import { Engine } from '../src/engine/engine.js';
import { LocalService } from '../src/engine/local-service.js';
import { RemoteService } from '../src/remote/remote-service.js';
import { startServer } from '../src/server/serve.js';
import { benchWorld } from './sample-world.js';
import { timeMedian, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');
/** The large file the streaming check saves. */
const LARGE_BYTES = 256 * 1024 * 1024;

interface Videos {
  human: string;
  hourLong: string;
}

async function pickVideos(engine: Engine): Promise<Videos> {
  const world = await benchWorld(engine);
  let human: string | undefined;
  let hourLong: string | undefined;
  for (const channel of world.sampleChannels(world.channelCount())) {
    for (const video of world.channelVideos(channel, { kind: 'long' })) {
      const transcript = world.transcript(video.video_id);
      if (!human && transcript?.source === 'human' && video.duration_seconds >= 900) human = video.video_id;
      if (!hourLong && transcript && video.duration_seconds >= 3600) hourLong = video.video_id;
    }
    if (human && hourLong) return { human, hourLong };
  }
  throw new Error('no suitable videos in the bench world');
}

export async function downloadRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-downloads-'));
  const engine = Engine.open({ dataDir, planOverrides: { ultimate: { downloadsPerHour: null, parallelDownloads: 100 } } });
  const key = (await engine.identity.createUserWithKey('ultimate', ['generations'])).key;
  const server = await startServer({ engine, port: 0 });
  const local = new LocalService(engine, key);
  const remote = new RemoteService({ baseUrl: server.url, apiKey: key });
  try {
    const videos = await pickVideos(engine);
    return [
      ...(await cachedLatency(local, remote, videos)),
      ...(await renderSpeed(local, videos)),
      ...(await streamingMemory(engine, server.url, key, local, videos)),
    ];
  } finally {
    await remote.close();
    await server.close();
    engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function cachedLatency(local: Service, remote: Service, videos: Videos): Promise<BenchRow[]> {
  const input = { video_url: `https://youtu.be/${videos.human}`, format: 'audio' as const, start: 0, end: 10 };
  await local.call('download', input);
  const rows: BenchRow[] = [];
  for (const [name, service] of [['embedded', local], ['over serve', remote]] as const) {
    await service.call('folders.list', {});
    const read = await timeMedian(50, () => service.call('folders.list', {}));
    const cached = await timeMedian(50, () => service.call('download', input));
    rows.push({ name: `download: cached answer (${name})`, value: cached, unit: 'ms', baseline: { name: 'folders list', value: read } });
  }
  return rows;
}

async function renderSpeed(service: Service, videos: Videos): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  // Each render is a new (video, format, quality, range): nothing comes from the cache.
  let offset = 0;
  const render = async (input: Record<string, unknown>, minutes: number) => {
    offset += 1;
    const started = performance.now();
    const answer = await service.call('download', { video_url: `https://youtu.be/${videos.human}`, start: offset, end: offset + minutes * 60, ...input } as never);
    if (answer.cached) throw new Error('a bench render came from the cache');
    return performance.now() - started;
  };
  await render({ format: 'audio' }, 0.1); // warm-up: speech synthesizer and ffmpeg in the page cache
  for (const [label, input] of [
    ['video 360p', { quality: '360p' }],
    ['video 720p', { quality: '720p' }],
    ['video 1080p', { quality: '1080p' }],
    ['audio (MP3)', { format: 'audio' }],
  ] as const) {
    const ms = await render(input, 10);
    // A budget of a second per minute keeps an hour's render within a minute even on a busy machine.
    rows.push({ name: `download: render ${label}, per minute of media (10-minute clip)`, value: ms / 10, unit: 'ms', budget: '≤ 1000 ms' });
  }
  const subtitles = await timeMedian(1, () => service.call('download', { video_url: `https://youtu.be/${videos.hourLong}`, format: 'subtitles' }));
  rows.push({ name: 'download: subtitles (SRT), whole video of an hour or more', value: subtitles, unit: 'ms' });
  for (const [label, input] of [['audio', { format: 'audio' }], ['video 360p', { quality: '360p' }]] as const) {
    const started = performance.now();
    const answer = await service.call('download', { video_url: `https://youtu.be/${videos.hourLong}`, start: 0, end: 3600, ...input } as never);
    const seconds = (performance.now() - started) / 1000;
    rows.push({ name: `download: render one hour of ${label} (${(answer.size_bytes / 1e6).toFixed(1)} MB)`, value: seconds, unit: 's', budget: '≤ 10 s' });
  }
  return rows;
}

/**
 * Peak memory of `tubekit download` in remote mode saving a 256 MB file through serve, against the
 * same command saving a 1 MB one: flat if the file streams. The file is planted in the cache under
 * a real request's entry (the sample world's own renders are far smaller).
 */
async function streamingMemory(engine: Engine, baseUrl: string, key: string, local: Service, videos: Videos): Promise<BenchRow[]> {
  const peak = async (bytes: number): Promise<number> => {
    const input = { video_url: `https://youtu.be/${videos.human}`, format: 'audio' as const, start: 100 + bytes / 1e6, end: 110 + bytes / 1e6 };
    const answer = await local.call('download', input);
    const file = path.join(engine.dataDir, 'cdn', decodeURIComponent(new URL(answer.download_url).pathname.split('/cdn/')[1]!));
    await writeFileOfSize(file, bytes);
    engine.db.prepare('UPDATE download_files SET size_bytes = ? WHERE path = ?').run(bytes, path.relative(path.join(engine.dataDir, 'cdn'), file));
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-save-'));
    try {
      const report = "process.on('exit',()=>process.stderr.write('\\nmaxrss='+process.resourceUsage().maxRSS+'\\n'))";
      const run = await execa('node', ['--import', `data:text/javascript,${encodeURIComponent(report)}`, BIN, 'download', input.video_url, '--format', 'audio', '--start', String(input.start), '--end', String(input.end), '-o', target], {
        env: { ...process.env, TUBEKIT_BASE_URL: baseUrl, TUBEKIT_API_KEY: key, TUBEKIT_CONFIG_DIR: target },
      });
      const saved = fs.readdirSync(target).filter((name) => name.endsWith('.mp3'));
      if (saved.length !== 1 || fs.statSync(path.join(target, saved[0]!)).size !== bytes) throw new Error('the streaming check saved the wrong file');
      return Number(/maxrss=(\d+)/.exec(run.stderr)![1]) / 1024;
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  };
  const small = await peak(1024 * 1024);
  const large = await peak(LARGE_BYTES);
  return [
    {
      name: 'download: CLI peak memory saving 256 MB through serve',
      value: large,
      unit: 'MB',
      baseline: { name: 'saving 1 MB', value: small },
      budget: '≤ 1.5× (flat)',
    },
  ];
}

async function writeFileOfSize(file: string, bytes: number): Promise<void> {
  const block = Buffer.alloc(1024 * 1024, 0x5a);
  const handle = await fs.promises.open(file, 'w');
  try {
    for (let written = 0; written < bytes; written += block.length) await handle.write(block, 0, Math.min(block.length, bytes - written));
  } finally {
    await handle.close();
  }
}
