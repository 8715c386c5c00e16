/**
 * Transcripts (captions) of the sample world's videos: derived on demand, never stored.
 *
 * A video's transcript is a pure function of (seed, video, channel): English cues with start and
 * end times that cover the video from its first second to its last. About a third of videos carry
 * human-authored captions (sentences, punctuation); the rest carry the platform's auto-generated
 * kind (lowercase word groups, no punctuation). Music videos are instrumental: no transcript.
 * Upcoming videos have no content yet: no transcript.
 *
 * The text talks about the video's own title, channel and subject, so whatever reads it (subtitle
 * downloads, the speech of rendered media, video analysis) is about that video.
 */
import { hashString, rngFor, streamSeed, type Rng } from './prng.js';
import type { WorldChannel, WorldVideo } from './types.js';
import { CATEGORIES, type CategoryDef } from './words.js';
import type { CaptionSource, Transcript, TranscriptCue } from '../transcript.js';

export type { CaptionSource, Transcript, TranscriptCue } from '../transcript.js';


/** Share of videos whose captions a person wrote. */
const HUMAN_CAPTION_SHARE = 0.35;
/** Seconds a spoken word takes, on average, in the sample world's speech. */
const SECONDS_PER_WORD = 0.38;

const CATEGORY_BY_NAME = new Map<string, CategoryDef>(CATEGORIES.map((category) => [category.name, category]));

const OPENINGS = [
  'Hi everyone, and welcome back to {channel}.',
  'Hey, it is {channel} here, thanks for watching.',
  'Welcome to {channel}, I am glad you are here.',
];
const TITLE_LINES = ['Today the video is called {title}.', 'This one is {title}.', 'Here it is: {title}.'];
const BODY_LINES = [
  'Let me show you how {thing} really works.',
  'The first thing to know about {thing} is that it takes patience.',
  'I tried this three different ways before it clicked.',
  'A lot of you asked about {thing} in the comments.',
  'Here is the part most people get wrong.',
  'Take a close look at this step.',
  'If you are new to {topic}, start here.',
  'This is where it gets interesting.',
  'I did not expect that result at all.',
  'Keep an eye on the timer in the corner.',
  'We will come back to {thing} in a minute.',
  'Honestly, this changed how I think about {topic}.',
  'Pause here if you want to follow along.',
  'That is the quick version; now the details.',
  'Let me know in the comments what you would do.',
  'The trick is to go slowly at first.',
  'Compare this with what we did earlier.',
  'Now for my favourite part of {thing}.',
];
const CLOSINGS = [
  'Thanks for watching, and see you in the next one.',
  'If this helped, subscribe to {channel} for more {topic}.',
  'That is it for today. Bye for now.',
];
const SHORT_LINES = ['Watch this.', 'Wait for it.', 'Did you see that?', 'Part two is coming.', 'Try {thing} yourself.', 'Follow for more {topic}.'];

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
}

/** Spoken form of a title: hashtags and emoji are not read aloud. */
function speakableTitle(title: string): string {
  return title
    .replace(/#\S+/g, '')
    .replace(/\p{Extended_Pictographic}/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!?…]+$/u, '');
}

/** Whether a video carries captions, and which kind. */
export function captionSource(seed: string, video: WorldVideo, channel: WorldChannel): CaptionSource | null {
  if (video.kind === 'upcoming' || channel.category === 'Music') return null;
  const roll = hashString(`${seed}\u241fcaptions\u241f${video.video_id}`) / 4294967296;
  return roll < HUMAN_CAPTION_SHARE ? 'human' : 'auto';
}

/** Sentences of the video, in order, long enough to fill its duration. */
function sentences(rng: Rng, video: WorldVideo, channel: WorldChannel, category: CategoryDef): string[] {
  const values = { channel: channel.title, title: speakableTitle(video.title), topic: category.topicWord, thing: rng.pick(category.things) };
  const duration = video.duration_seconds;
  if (video.kind === 'short') {
    const lines = [fill(rng.pick(TITLE_LINES), values)];
    let words = lines[0]!.split(' ').length;
    while ((words + 3) * SECONDS_PER_WORD < duration * 0.7) {
      const line = fill(rng.pick(SHORT_LINES), values);
      lines.push(line);
      words += line.split(' ').length + 2;
    }
    return lines;
  }
  const lines = [fill(rng.pick(OPENINGS), values), fill(rng.pick(TITLE_LINES), values)];
  const closing = fill(rng.pick(CLOSINGS), values);
  // Speech fills about four fifths of the video; the rest is pauses between sentences.
  const wordBudget = (duration * 0.8) / SECONDS_PER_WORD;
  let words = lines.join(' ').split(' ').length + closing.split(' ').length;
  while (words < wordBudget) {
    if (rng.chance(0.15)) values.thing = rng.pick(category.things);
    const line = fill(rng.pick(BODY_LINES), values);
    lines.push(line);
    words += line.split(' ').length;
  }
  lines.push(closing);
  return lines;
}

/** Auto captions: lowercase word groups of 3–7 words without punctuation. */
function autoGroups(rng: Rng, sentence: string): string[] {
  const words = sentence.toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, ' ').split(/\s+/).filter(Boolean);
  const groups: string[] = [];
  for (let index = 0; index < words.length; ) {
    const size = rng.int(3, 7);
    groups.push(words.slice(index, index + size).join(' '));
    index += size;
  }
  return groups;
}

/**
 * The video's transcript, or null when it has none (music, upcoming). Cue times lie within
 * [0, duration], never overlap, and the cues are spread over the whole video.
 */
export function transcriptFor(seed: string, video: WorldVideo, channel: WorldChannel): Transcript | null {
  const source = captionSource(seed, video, channel);
  if (!source || video.duration_seconds <= 0) return null;
  const rng = rngFor(streamSeed(seed, 'transcripts'), hashString(video.video_id));
  const category = CATEGORY_BY_NAME.get(channel.category) ?? CATEGORIES[0]!;
  const lines = sentences(rng, video, channel, category);
  const pieces = source === 'human' ? lines : lines.flatMap((line) => autoGroups(rng, line));
  const wordCounts = pieces.map((piece) => piece.split(' ').length);
  const totalWords = wordCounts.reduce((sum, n) => sum + n, 0);
  const duration = video.duration_seconds;
  // Speech takes at most 85 % of the video; the rest is shared out as pauses before each cue and
  // after the last, in random proportions, so the cues end inside the video.
  const speaking = Math.min(totalWords * SECONDS_PER_WORD, duration * 0.85);
  const pauseWeights = Array.from({ length: pieces.length + 1 }, () => 0.5 + rng.next());
  const pauseUnit = (duration - speaking) / pauseWeights.reduce((sum, weight) => sum + weight, 0);
  const cues: TranscriptCue[] = [];
  let clock = 0;
  for (let index = 0; index < pieces.length; index += 1) {
    clock += pauseWeights[index]! * pauseUnit;
    const length = (speaking * wordCounts[index]!) / totalWords;
    cues.push({ start: round(clock), end: round(Math.min(duration, clock + length)), text: pieces[index]! });
    clock += length;
  }
  return { video_id: video.video_id, language: 'en', source, cues };
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
