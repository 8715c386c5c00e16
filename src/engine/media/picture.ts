/**
 * The picture of a rendered sample-world video: the title (wrapped, centred), the channel, and a
 * running time code of the video's own timeline (so a clip from 1:30 shows 00:01:30 first), drawn
 * by ffmpeg's drawtext on a colour that is stable per video. Text goes through files rather than
 * the filter string, so a title never needs escaping.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hashString } from '../hash.js';

export interface FrameSize {
  width: number;
  height: number;
}

/** Frames of the requested height: 16:9, or 9:16 for shorts (as the platform shows them). Even sides for 4:2:0. */
export function frameSize(height: number, portrait: boolean): FrameSize {
  const width = portrait ? (height * 9) / 16 : (height * 16) / 9;
  return { width: Math.round(width / 2) * 2, height };
}

/** Pictures a second of a rendered video: the picture changes once a second (its time code). */
export const PICTURES_PER_SECOND = 1;

const BACKGROUNDS = ['0x1e2233', '0x23301f', '0x2e1f2b', '0x1f2c33', '0x33291f', '0x262626'];

export interface PictureText {
  title: string;
  channel: string;
  footer: string;
  /** Seconds of the video at the section's first frame. */
  startSeconds: number;
  /** Picks the background colour. */
  seed: string;
}

/** Breaks `text` into at most `maxLines` lines of at most `width` characters, with an ellipsis where cut. */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const length = (value: string) => [...value].length;
  const ellipsis = (value: string) => `${[...value].slice(0, width - 1).join('').trimEnd()}…`;
  const lines: string[] = [];
  let line = '';
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (length(candidate) <= width || !line) line = candidate;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  const shown = lines.slice(0, maxLines).map((each) => (length(each) > width ? ellipsis(each) : each));
  if (lines.length > maxLines) {
    const last = shown[maxLines - 1]!;
    shown[maxLines - 1] = length(last) < width ? `${last}…` : ellipsis(last);
  }
  return shown;
}

/** Escapes a path for a filter option value (inside single quotes). */
const quotePath = (file: string) => `'${file.replace(/\\/g, '/').replace(/'/g, "'\\\\''")}'`;

/**
 * The drawtext chain for a frame, writing the text files it reads into `workDir`.
 * The colour source goes first, then the text; the time code's offset is the section's start.
 */
export function pictureFilter(size: FrameSize, text: PictureText, workDir: string): { background: string; filter: string } {
  const { width, height } = size;
  const narrow = width < height;
  const titleSize = Math.max(12, Math.round(height * (narrow ? 0.04 : 0.065)));
  const smallSize = Math.max(9, Math.round(titleSize * 0.55));
  // A monospace time code "00:00:00" is about 4.9 em wide: keep it inside 90 % of the width.
  const clockSize = Math.max(12, Math.round(Math.min(height * 0.16, (width * 0.9) / 4.9)));
  const charsPerLine = Math.max(8, Math.floor((width * 0.9) / (titleSize * 0.58)));

  const draws: string[] = [];
  const textFile = (name: string, content: string) => {
    const file = path.join(workDir, name);
    fs.writeFileSync(file, content);
    return quotePath(file);
  };
  const lines = wrapText(text.title, charsPerLine, 3);
  let y = Math.round(height * 0.12);
  lines.forEach((line, index) => {
    draws.push(`drawtext=font=Sans:expansion=none:textfile=${textFile(`title-${index}.txt`, line)}:fontcolor=white:fontsize=${titleSize}:x=(w-text_w)/2:y=${y}`);
    y += Math.round(titleSize * 1.3);
  });
  draws.push(`drawtext=font=Sans:expansion=none:textfile=${textFile('channel.txt', text.channel)}:fontcolor=0xbbbbbb:fontsize=${smallSize}:x=(w-text_w)/2:y=${y + Math.round(smallSize * 0.6)}`);
  const offset = text.startSeconds.toFixed(3);
  draws.push(`drawtext=font=Monospace:text='%{pts\\:gmtime\\:${offset}\\:%H\\\\\\:%M\\\\\\:%S}':fontcolor=white:fontsize=${clockSize}:x=(w-text_w)/2:y=(h-text_h)/2+${Math.round(height * 0.08)}`);
  draws.push(`drawtext=font=Sans:expansion=none:textfile=${textFile('footer.txt', text.footer)}:fontcolor=0x999999:fontsize=${smallSize}:x=(w-text_w)/2:y=h-${Math.round(smallSize * 2.2)}`);

  const color = BACKGROUNDS[hashString(text.seed) % BACKGROUNDS.length]!;
  return { background: `color=c=${color}:s=${width}x${height}:r=${PICTURES_PER_SECOND}`, filter: draws.join(',') };
}
