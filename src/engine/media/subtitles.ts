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
