/** Videos of a sample world to download in tests, and probing of the files that come back. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { execa } from 'execa';
import type { Service } from '../../src/core/service.js';
import type { Engine } from '../../src/engine/engine.js';
import type { PlatformVideo } from '../../src/engine/platform/sample/platform.js';
import type { Transcript } from '../../src/engine/platform/sample/transcripts.js';

export interface TestVideos {
  /** A long video with human captions, 5 to 25 minutes. */
  human: PlatformVideo & { transcript: Transcript };
  /** A long video with auto captions. */
  auto: PlatformVideo & { transcript: Transcript };
  /** A long video without a transcript (music). */
  music: PlatformVideo;
  /** A short with captions. */
  short: PlatformVideo & { transcript: Transcript };
  /** A long video with a transcript, over 15 minutes: more than 500 MB at 1080p by the nominal bitrate. */
  long: PlatformVideo;
}

/** Picks one video of each kind from the world, the same ones every run. */
export async function pickVideos(engine: Engine): Promise<TestVideos> {
  const world = await engine.platform();
  const found: Partial<TestVideos> = {};
  for (const channel of world.sampleChannels(world.channelCount())) {
    for (const video of world.channelVideos(channel)) {
      if (video.kind === 'upcoming') continue;
      const transcript = world.transcript(video.video_id);
      const minutes = video.duration_seconds / 60;
      if (video.kind === 'short') {
        if (transcript && !found.short) found.short = { ...video, transcript };
        continue;
      }
      if (!transcript && !found.music && minutes >= 3) found.music = video;
      // Each role gets its own video, so one test's cached file never answers another's request.
      if (transcript?.source === 'human' && !found.human && minutes >= 5 && minutes <= 25) found.human = { ...video, transcript };
      else if (transcript?.source === 'auto' && !found.auto && minutes >= 5) found.auto = { ...video, transcript };
      else if (transcript && !found.long && minutes > 15) found.long = video;
    }
    if (found.human && found.auto && found.music && found.short && found.long) return found as TestVideos;
  }
  throw new Error(`the world lacks test videos: found ${Object.keys(found).join(', ')}`);
}

export const watchUrl = (video: { video_id: string }) => `https://www.youtube.com/watch?v=${video.video_id}`;

export interface ProbedMedia {
  duration: number;
  streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; tags?: Record<string, string> }>;
}

export async function probe(file: string): Promise<ProbedMedia> {
  const { stdout } = await execa('ffprobe', ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,codec_name,width,height:stream_tags=language', '-of', 'json', file]);
  const parsed = JSON.parse(stdout) as { format: { duration: string }; streams: ProbedMedia['streams'] };
  return { duration: Number(parsed.format.duration), streams: parsed.streams };
}

/** Fetches a download_url through the service into a temporary file. */
export async function fetchToFile(service: Service, url: string, name = 'download'): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-fetch-'));
  const file = path.join(dir, name);
  await pipeline(await service.fetchFile(url), fs.createWriteStream(file));
  return file;
}

export async function fetchText(service: Service, url: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await service.fetchFile(url)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** SRT text as cues. */
export function parseSrt(text: string): Array<{ start: number; end: number; text: string }> {
  const seconds = (stamp: string) => {
    const [h, m, rest] = stamp.split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(rest!.replace(',', '.'));
  };
  return text
    .trim()
    .split(/\n\n+/)
    .filter(Boolean)
    .map((block) => {
      const lines = block.split('\n');
      const [from, to] = lines[1]!.split(' --> ');
      return { start: seconds(from!), end: seconds(to!), text: lines.slice(2).join('\n') };
    });
}
