/** SubRip subtitles from a transcript's cues, with their real timings. */
import { formatSrtTimestamp } from '../speech/index.js';
import type { TranscriptCue } from '../platform/transcript.js';
import type { MediaSection } from './sound-plan.js';

/** The whole transcript, or with `section` only its cues there, timed from the section's start. */
export function transcriptToSrt(cues: readonly TranscriptCue[], section?: MediaSection): string {
  const shift = section?.start ?? 0;
  const limit = section ? section.duration : Infinity;
  const lines: string[] = [];
  for (const cue of cues) {
    const start = Math.max(0, cue.start - shift);
    const end = Math.min(limit, cue.end - shift);
    const text = cue.text.replace(/\s+/g, ' ').trim();
    if (end <= start || !text) continue;
    lines.push(`${lines.length + 1}\n${formatSrtTimestamp(start * 1000)} --> ${formatSrtTimestamp(end * 1000)}\n${text}\n`);
  }
  return lines.join('\n');
}

const SRT_TIME = /(\d+):(\d{2}):(\d{2})[,.](\d{3})/;
const srtSeconds = (text: string) => {
  const match = SRT_TIME.exec(text);
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) + Number(match[4]) / 1000 : NaN;
};

/** The cues of a SubRip file (what yt-dlp's `--convert-subs srt` writes); malformed blocks are skipped. */
export function parseSrt(text: string): TranscriptCue[] {
  const cues: TranscriptCue[] = [];
  for (const block of text.replace(/^\uFEFF/, '').split(/\r?\n\s*\r?\n/)) {
    const lines = block.split(/\r?\n/).filter((line) => line.trim() !== '');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) continue;
    const [from = '', to = ''] = lines[timing]!.split('-->');
    const start = srtSeconds(from);
    const end = srtSeconds(to);
    const cueText = lines.slice(timing + 1).join('\n').replace(/<[^>]+>/g, '').trim();
    if (Number.isFinite(start) && Number.isFinite(end) && end > start && cueText) cues.push({ start, end, text: cueText });
  }
  return cues;
}
