/**
 * The sound of a sample-world video as a plan: a few distinct pieces of PCM (mono, 16-bit,
 * 22,050 Hz) and where each plays on the video's timeline. With a transcript, its cues are
 * spoken at their times (silence between); without one (music), a soft melody of tones plays.
 * Only what the requested section needs is planned; `stitch.ts` turns the plan into audio frames.
 */
import { ESPEAK_SAMPLE_RATE, getSynthesizer } from '../speech/index.js';
import { hashString } from '../hash.js';
import type { Transcript } from '../platform/transcript.js';
import { SpeechClips, type Placement } from './speech-clips.js';

export const SOUND_RATE = ESPEAK_SAMPLE_RATE;

/** A part of a video, in seconds from its start. */
export interface MediaSection {
  start: number;
  duration: number;
}

export interface SoundPlan {
  pieces: Map<string, Int16Array>;
  /** In time order; a piece sounds until it ends or the next one starts. */
  placements: Placement[];
  /** The section, in samples of the video's timeline: [first, first + samples). */
  first: number;
  samples: number;
}

const VOICES = ['en-us', 'en-us+f3', 'en', 'en-us+m3'];

/** The voice a channel's videos speak with: stable per channel. */
export function voiceForChannel(channelId: string): string {
  return VOICES[hashString(channelId) % VOICES.length]!;
}

export async function soundPlanFor(
  section: MediaSection,
  transcript: Transcript | null,
  options: { voice: string; toneSeed: string; signal?: AbortSignal },
): Promise<SoundPlan> {
  const first = Math.round(section.start * SOUND_RATE);
  const samples = Math.round(section.duration * SOUND_RATE);
  if (!transcript || transcript.cues.length === 0) return { ...melody(first, samples, options.toneSeed), first, samples };
  const end = section.start + section.duration;
  const cues = transcript.cues.filter((cue) => cue.end > section.start && cue.start < end);
  const clips = new SpeechClips(await getSynthesizer(), options.voice, transcript.source);
  const placements = await clips.place(cues, options.signal);
  return { pieces: clips.pieces, placements, first, samples };
}

/** Whole hertz, so a note holds whole cycles; about two seconds a note. */
const NOTES_HZ = [220, 262, 294, 330, 392, 440];
const NOTE_SAMPLES = 46_080;
const TONE_AMPLITUDE = 0.12 * 32767;
const FADE_SAMPLES = Math.round(SOUND_RATE * 0.02);

let notePieces: Map<string, Int16Array> | undefined;

function notes(): Map<string, Int16Array> {
  notePieces ??= new Map(
    NOTES_HZ.map((hz) => {
      const note = new Int16Array(NOTE_SAMPLES);
      for (let i = 0; i < NOTE_SAMPLES; i += 1) {
        const fade = Math.min(1, i / FADE_SAMPLES, (NOTE_SAMPLES - 1 - i) / FADE_SAMPLES);
        note[i] = Math.round(TONE_AMPLITUDE * fade * Math.sin((2 * Math.PI * hz * i) / SOUND_RATE));
      }
      return [`tone ${hz} Hz`, note];
    }),
  );
  return notePieces;
}

/** Notes on a fixed grid of the video's timeline; which note is a pure function of the video. */
function melody(first: number, samples: number, seed: string): Pick<SoundPlan, 'pieces' | 'placements'> {
  const pieces = notes();
  const names = [...pieces.keys()];
  const placements: Placement[] = [];
  for (let slot = Math.floor(first / NOTE_SAMPLES); slot * NOTE_SAMPLES < first + samples; slot += 1) {
    placements.push({ at: slot * NOTE_SAMPLES, piece: names[hashString(`${seed}\u241f${slot}`) % names.length]! });
  }
  return { pieces, placements };
}
