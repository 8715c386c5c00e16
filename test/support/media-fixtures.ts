/**
 * Media files for the live platform's download tests, generated with ffmpeg on first use (never
 * committed): short test-pattern clips at several heights in H.264, VP9 and AAC/Opus, as the site
 * serves them — video-only and audio-only streams, and one progressive stream. Made once per
 * machine in a shared temporary folder (written aside and renamed, so parallel test files agree).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

/** Seconds every stock clip lasts. */
export const CLIP_SECONDS = 20;

export interface MediaStock {
  name: string;
  /** File name under the stock folder. */
  file: string;
  ext: string;
  vcodec: string;
  acodec: string;
  width: number | null;
  height: number | null;
}

const picture = (width: number, height: number, seconds: number) => ['-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=10:duration=${seconds}`];
const tone = (seconds: number, frequency = 440) => ['-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=44100:duration=${seconds}`];
const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '10'];
const vp9 = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '150k', '-g', '10'];

interface Recipe extends MediaStock {
  args: (seconds: number) => string[];
}

const RECIPES: Recipe[] = [
  { name: 'h264-360', file: 'h264-360.mp4', ext: 'mp4', vcodec: 'avc1.4d401e', acodec: 'none', width: 640, height: 360, args: (s) => [...picture(640, 360, s), ...h264, '-an', '-movflags', '+faststart'] },
  { name: 'h264-480', file: 'h264-480.mp4', ext: 'mp4', vcodec: 'avc1.4d401f', acodec: 'none', width: 854, height: 480, args: (s) => [...picture(854, 480, s), ...h264, '-an', '-movflags', '+faststart'] },
  { name: 'h264-720', file: 'h264-720.mp4', ext: 'mp4', vcodec: 'avc1.64001f', acodec: 'none', width: 1280, height: 720, args: (s) => [...picture(1280, 720, s), ...h264, '-an', '-movflags', '+faststart'] },
  { name: 'vp9-480', file: 'vp9-480.webm', ext: 'webm', vcodec: 'vp9', acodec: 'none', width: 854, height: 480, args: (s) => [...picture(854, 480, s), ...vp9, '-an'] },
  { name: 'h264-1440', file: 'h264-1440.mp4', ext: 'mp4', vcodec: 'avc1.640032', acodec: 'none', width: 2560, height: 1440, args: (s) => [...picture(2560, 1440, s), ...h264, '-an', '-movflags', '+faststart'] },
  { name: 'aac', file: 'aac.m4a', ext: 'm4a', vcodec: 'none', acodec: 'mp4a.40.2', width: null, height: null, args: (s) => [...tone(s), '-c:a', 'aac', '-b:a', '64k', '-vn', '-movflags', '+faststart'] },
  { name: 'opus', file: 'opus.webm', ext: 'webm', vcodec: 'none', acodec: 'opus', width: null, height: null, args: (s) => [...tone(s, 660), '-c:a', 'libopus', '-b:a', '48k', '-vn'] },
  {
    name: 'progressive-360',
    file: 'progressive-360.mp4',
    ext: 'mp4',
    vcodec: 'avc1.42001E',
    acodec: 'mp4a.40.2',
    width: 640,
    height: 360,
    args: (s) => [...picture(640, 360, s), ...tone(s), ...h264, '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart'],
  },
];

const folderFor = (seconds: number, names: string[]) =>
  path.join(os.tmpdir(), `tubekit-media-stock-${createHash('sha256').update(JSON.stringify([seconds, names, RECIPES.map((recipe) => recipe.args(seconds))])).digest('hex').slice(0, 12)}`);

/**
 * The stock clips (all of them, or `names`), `seconds` long, made if missing. Returns the folder
 * and each clip's description.
 */
export async function mediaStock(seconds = CLIP_SECONDS, names?: string[]): Promise<{ dir: string; clips: Map<string, MediaStock & { size: number }> }> {
  const recipes = names ? RECIPES.filter((recipe) => names.includes(recipe.name)) : RECIPES;
  const dir = folderFor(seconds, recipes.map((recipe) => recipe.name));
  fs.mkdirSync(dir, { recursive: true });
  const clips = new Map<string, MediaStock & { size: number }>();
  for (const recipe of recipes) {
    const file = path.join(dir, recipe.file);
    if (!fs.existsSync(file)) {
      const aside = path.join(dir, `.${process.pid}-${recipe.file}`);
      await execa('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...recipe.args(seconds), '-f', recipe.ext === 'm4a' ? 'mp4' : recipe.ext, aside]);
      fs.renameSync(aside, file);
    }
    const { args: _args, ...stock } = recipe;
    clips.set(recipe.name, { ...stock, size: fs.statSync(file).size });
  }
  return { dir, clips };
}

/** WebVTT captions: a cue every 4 seconds over `seconds`. */
export function captionsVtt(seconds: number, words: string): string {
  const stamp = (value: number) => `${String(Math.floor(value / 3600)).padStart(2, '0')}:${String(Math.floor((value % 3600) / 60)).padStart(2, '0')}:${String(value % 60).padStart(2, '0')}.000`;
  const cues = [];
  for (let start = 0; start + 4 <= seconds; start += 4) cues.push(`${stamp(start)} --> ${stamp(start + 3)}\n${words} ${start / 4 + 1}\n`);
  return `WEBVTT\n\n${cues.join('\n')}`;
}
