/**
 * The words sent to a vision model beside the pictures: what the video is (title, channel, link,
 * length), its transcript with times, and the user's prompt last. A transcript longer than the
 * budget keeps lines spread over the whole video (every k-th), and says so.
 */
import type { PlatformVideo } from '../../../platform/platform.js';
import type { Transcript } from '../../../platform/transcript.js';
import { TRANSCRIPT_MAX_CHARACTERS } from './media-plan.js';

export interface VideoContext {
  video: PlatformVideo;
  channelTitle: string;
  transcript: Transcript | null;
}

/** m:ss or h:mm:ss. */
export function clockTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

export const SYSTEM_INSTRUCTIONS =
  'You analyse videos. You are given what the video is, its transcript with times, and either the video itself or still frames ' +
  'taken evenly across its whole length (each labelled with its time). Answer the request that follows about this video only, ' +
  'from what the pictures show and what is said. When the request asks for JSON, answer with the JSON alone, in the shape it asks for.';

export function videoLink(video: PlatformVideo): string {
  return video.kind === 'short' ? `https://www.youtube.com/shorts/${video.video_id}` : `https://www.youtube.com/watch?v=${video.video_id}`;
}

/** The header describing the video, then its transcript. */
export function describeVideo(context: VideoContext, pictures: string): string {
  const { video } = context;
  return [
    `Video: “${video.title}” by ${context.channelTitle} (${videoLink(video)})${video.duration_seconds === null ? '' : `, ${clockTime(video.duration_seconds)} long`}.`,
    pictures,
    transcriptSection(context.transcript),
  ].join('\n');
}

export function transcriptSection(transcript: Transcript | null): string {
  if (!transcript || transcript.cues.length === 0) return 'Transcript: none (the video has no captions).';
  const lines = transcript.cues.map((cue) => `[${clockTime(cue.start)}] ${cue.text.replace(/\s+/g, ' ').trim()}`);
  const source = transcript.source === 'human' ? 'captions by the uploader' : 'automatic captions';
  const whole = lines.join('\n');
  if (whole.length <= TRANSCRIPT_MAX_CHARACTERS) return `Transcript (${source}):\n${whole}`;
  // Keep every k-th line, k the smallest that fits: the whole length stays covered.
  for (let every = 2; ; every += 1) {
    const kept = lines.filter((_, index) => index % every === 0).join('\n');
    if (kept.length <= TRANSCRIPT_MAX_CHARACTERS || every >= lines.length) {
      return `Transcript (${source}; long, so only every ${ordinal(every)} line is given):\n${kept.slice(0, TRANSCRIPT_MAX_CHARACTERS)}`;
    }
  }
}

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

export function requestSection(prompt: string): string {
  return `Request:\n${prompt.trim()}`;
}
