/**
 * What the analyst knows about a video, read from its own content: the transcript as timed
 * segments (auto captions, which are word groups, are joined into sentence-sized pieces), the
 * words it keeps coming back to, its key moments, its opening, its tone and its numbers.
 */
import type { PlatformChannel, PlatformVideo } from '../../../platform/platform.js';
import type { Transcript } from '../../../platform/transcript.js';

export interface Segment {
  start: number;
  end: number;
  text: string;
}

export interface VideoReading {
  video: PlatformVideo;
  channel: PlatformChannel;
  url: string;
  captions: Transcript['source'] | null;
  segments: Segment[];
  /** The part of the video the answer is about (seconds): the whole video, or the prompt's window. */
  span: { start: number; end: number };
  /** Most repeated words and word pairs of the title and the speech, most frequent first. */
  keywords: string[];
  tone: 'upbeat' | 'balanced' | 'critical';
  /** null where a count it needs is unknown (the live site did not give it). */
  likeRate: number | null;
  commentRate: number | null;
  /** This video's views against the channel's average per video; null when either is unknown. */
  viewsVsChannel: number | null;
}

const STOPWORDS = new Set(
  ('a an and are as at be been but by can did do does for from had has have he her here him his how i if in into is it its ' +
    'just let me more most my no not now of on one or our out so some than that the their them then there these they this ' +
    'to too up us very was we were what when where which who why will with would you your yours about after again all also ' +
    'am any back because before being both each few first get got go going know like make many much must need new next off ' +
    'only other over own part really right same say see should since still take tell thing things think those through time ' +
    'today try under until use want way well while yes yet video videos watch watching shorts welcome hi hey thanks everyone ' +
    'bye glad called here comments comment subscribe channel minute ' +
    // Generic talk that names no topic.
    'follow along gets interesting expect expected result honestly pause start here part details version quick close look ' +
    'step slowly trick earlier compare favourite favorite wrong people patience clicked different ways three asked lot keep ' +
    'eye timer corner come changed works really first thing things know new helped help done show tried').split(' '),
);
const POSITIVE = /\b(love|best|great|favou?rite|glad|thanks|amazing|interesting|helped|fun|easy|happy|wow|enjoy\w*|perfect|changed how)\b/g;
const NEGATIVE = /\b(wrong|worst|hard|mistakes?|fail\w*|problem|bad|difficult|did not expect|patience|weird\w*)\b/g;

/** Words of about a sentence per auto-caption segment. */
const SEGMENT_WORDS = 14;

export function readVideo(video: PlatformVideo, channel: PlatformChannel, transcript: Transcript | null): VideoReading {
  const segments = transcript ? segmentsOf(transcript) : [];
  const speech = segments.map((segment) => segment.text).join(' ').toLowerCase();
  const positive = speech.match(POSITIVE)?.length ?? 0;
  const negative = speech.match(NEGATIVE)?.length ?? 0;
  const channelAverage = channel.total_views === null || channel.video_count === null ? null : channel.total_views / Math.max(1, channel.video_count);
  const { views, likes, comments } = video;
  return {
    video,
    channel,
    url: video.kind === 'short' ? `https://www.youtube.com/shorts/${video.video_id}` : `https://www.youtube.com/watch?v=${video.video_id}`,
    captions: transcript?.source ?? null,
    segments,
    // An unknown length (a live Short) ends where the captions end.
    span: { start: 0, end: video.duration_seconds ?? segments.at(-1)?.end ?? 0 },
    keywords: keywordsOf(video.title, speech),
    tone: positive > negative * 2 ? 'upbeat' : negative > positive ? 'critical' : 'balanced',
    likeRate: views === null || likes === null ? null : views > 0 ? likes / views : 0,
    commentRate: views === null || comments === null ? null : views > 0 ? comments / views : 0,
    viewsVsChannel: views === null || channelAverage === null ? null : channelAverage > 0 ? views / channelAverage : 0,
  };
}

function segmentsOf(transcript: Transcript): Segment[] {
  if (transcript.source === 'human') return transcript.cues.map((cue) => ({ ...cue }));
  const segments: Segment[] = [];
  let current: Segment | null = null;
  for (const cue of transcript.cues) {
    if (!current) current = { ...cue };
    else {
      current.text += ` ${cue.text}`;
      current.end = cue.end;
    }
    if (current.text.split(' ').length >= SEGMENT_WORDS) {
      segments.push(current);
      current = null;
    }
  }
  if (current) segments.push(current);
  return segments;
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
const meaningful = (word: string) => word.length >= 3 && !STOPWORDS.has(word) && !/^\d+$/.test(word);

/** Repeated word pairs first (they name things: "sourdough bread"), then single words; the title counts thrice. */
function keywordsOf(title: string, speech: string): string[] {
  const counts = new Map<string, number>();
  const add = (term: string, weight: number) => counts.set(term, (counts.get(term) ?? 0) + weight);
  for (const [text, weight] of [[title, 3], [speech, 1]] as const) {
    const words = wordsOf(text.replace(/#\S+/g, ''));
    words.forEach((word, index) => {
      if (!meaningful(word)) return;
      add(word, weight);
      const next = words[index + 1];
      if (next && meaningful(next)) add(`${word} ${next}`, weight * 1.5);
    });
  }
  const ranked = [...counts.entries()].filter(([term, n]) => n >= 2 || !term.includes(' ')).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const picked: string[] = [];
  for (const [term] of ranked) {
    // A pair already covers its words.
    if (picked.some((chosen) => chosen.includes(' ') && chosen.split(' ').includes(term))) continue;
    picked.push(term);
  }
  return picked;
}

/** The reading narrowed to a window of the video: the speech within it, cut at its edges. */
export function withinWindow(reading: VideoReading, window: { start: number; end: number }): VideoReading {
  const end = Math.min(window.end, Math.max(window.start, reading.span.end));
  const segments = reading.segments
    .filter((segment) => segment.end > window.start && segment.start < end)
    .map((segment) => ({ ...segment, start: Math.max(segment.start, window.start), end: Math.min(segment.end, end) }));
  return { ...reading, segments, span: { start: window.start, end } };
}

/** How telling a segment is: the top keywords it mentions (the higher ranked, the more) and the title's words. */
export function segmentWeight(segment: Segment, reading: VideoReading): number {
  const text = segment.text.toLowerCase();
  const keywords = reading.keywords.slice(0, 12).reduce((sum, keyword, rank) => sum + (text.includes(keyword) ? 12 - rank : 0), 0);
  const titleWords = wordsOf(reading.video.title).filter(meaningful);
  return keywords + 5 * titleWords.filter((word) => text.includes(word)).length;
}

/**
 * The most telling segment of each of `count` equal stretches of the video, in order; a sentence
 * said several times is a key moment once.
 */
export function keyMoments(reading: VideoReading, count: number): Segment[] {
  const { segments } = reading;
  if (segments.length === 0) return [];
  const { start, end } = reading.span;
  const duration = Math.max(1, end - start);
  const moments: Segment[] = [];
  const said = new Set<string>();
  for (let part = 0; part < count; part += 1) {
    const from = start + (duration * part) / count;
    const to = part === count - 1 ? Number.POSITIVE_INFINITY : start + (duration * (part + 1)) / count;
    const inPart = segments.filter((segment) => segment.start >= from && segment.start < to && !said.has(segment.text));
    if (inPart.length === 0) continue;
    const best = inPart.reduce((top, segment) => (segmentWeight(segment, reading) > segmentWeight(top, reading) ? segment : top));
    said.add(best.text);
    moments.push(best);
  }
  return moments;
}

/** m:ss or h:mm:ss. */
export function clock(seconds: number): string {
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A segment's text, cut to about `words` words. */
export function excerpt(text: string, words = 16): string {
  const parts = text.split(/\s+/);
  return parts.length <= words ? text : `${parts.slice(0, words).join(' ')}…`;
}
