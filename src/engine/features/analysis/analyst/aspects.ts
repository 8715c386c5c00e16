/**
 * One producer per aspect a prompt can ask about: each gives the aspect as data (for JSON answers)
 * and as prose (for text answers), from the video's reading only.
 */
import type { Aspect, PromptReading } from './prompt.js';
import { clock, excerpt, keyMoments, type Segment, type VideoReading } from './video-reading.js';

export interface AspectContext {
  reading: VideoReading;
  prompt: PromptReading;
  resolution: 'low' | 'default';
}

interface AspectProducer {
  heading: string;
  /** Key in a JSON answer. */
  key: string;
  data(context: AspectContext): unknown;
  text(context: AspectContext): string;
}

const count = (n: number | null) => (n === null ? 'an unknown number of' : new Intl.NumberFormat('en-US').format(n));
const percent = (rate: number | null) => (rate === null ? 'an unknown share' : `${(rate * 100).toFixed(rate < 0.01 ? 2 : 1)}%`);
const rounded = (value: number | null, digits: number) => (value === null ? null : Number(value.toFixed(digits)));
const bullets = (lines: string[]) => lines.map((line) => `- ${line}`).join('\n');
const quote = (text: string) => `“${text}”`;
/** A quotation closing a sentence: no second full stop after one inside it. */
const quoteEnding = (text: string) => (/[.!?…]$/.test(text) ? `“${text}”` : `“${text}”.`);
const kindName = (reading: VideoReading) => (reading.video.kind === 'short' ? 'Short' : 'video');
const noSpeech = (reading: VideoReading) =>
  reading.channel.category === 'Music' ? 'It is instrumental music: there is no speech to transcribe.' : 'It has no captions, so nothing said in it can be quoted.';

/** How many list items: the prompt's number, else by the length it asks for. */
function itemsWanted(context: AspectContext, normal: number): number {
  if (context.prompt.count !== undefined) return context.prompt.count;
  const base = context.prompt.brevity === 'brief' ? Math.max(2, normal - 2) : context.prompt.brevity === 'detailed' ? normal + 3 : normal;
  // The higher media resolution reads the video in finer steps.
  return context.resolution === 'default' ? base + 1 : base;
}

function summarySentences(context: AspectContext): string[] {
  const { video, channel, segments, keywords } = context.reading;
  const when = video.published_at?.slice(0, 10) ?? 'on an unknown date';
  const length = video.duration_seconds === null ? '' : `${clock(video.duration_seconds)} `;
  const about = `${quote(video.title)} is a ${length}${kindName(context.reading)} by ${channel.title} (${channel.handle}, ${count(channel.subscribers)} subscribers${channel.category ? `, ${channel.category}` : ''}), published ${when}`;
  if (segments.length === 0) return [`${about}.`, noSpeech(context.reading)];
  const sentences = [`${about}, in which the speaker talks mostly about ${listWords(keywords.slice(0, 3))}.`];
  const [first, last] = [segments[0]!, segments.at(-1)!];
  const middle = keyMoments(context.reading, 4).filter((segment) => segment.text !== first.text && segment.text !== last.text).slice(0, 2);
  sentences.push(`It opens with ${quote(excerpt(first.text, 12))}${middle.length ? `, moves on to ${middle.map((segment) => quote(excerpt(segment.text, 10))).join(' and ')},` : ''} and ends with ${quote(excerpt(last.text, 12))}.`);
  sentences.push(`It has ${count(video.views)} views, ${count(video.likes)} likes and ${count(video.comments)} comments.`);
  return sentences;
}

function listWords(words: string[]): string {
  if (words.length <= 1) return words[0] ?? 'its title';
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function momentLines(context: AspectContext): Array<{ timestamp: string; seconds: number; description: string }> {
  return keyMoments(context.reading, itemsWanted(context, 5)).map((segment) => ({
    timestamp: clock(segment.start),
    seconds: Math.floor(segment.start),
    description: excerpt(segment.text, 14),
  }));
}

function opening(context: AspectContext): { seconds: number; segments: Segment[]; titleAt: number | null } {
  const seconds = context.prompt.firstSeconds ?? (context.reading.video.kind === 'short' ? 5 : 15);
  const { segments, video } = context.reading;
  const titleWords = (video.title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 2);
  const titled = segments.find((segment) => {
    const text = segment.text.toLowerCase();
    return titleWords.length > 0 && titleWords.filter((word) => text.includes(word)).length / titleWords.length >= 0.6;
  });
  return { seconds, segments: segments.filter((segment) => segment.start < seconds), titleAt: titled ? titled.start : null };
}

function statistics(reading: VideoReading) {
  const { video, channel } = reading;
  return {
    views: video.views,
    likes: video.likes,
    comments: video.comments,
    like_rate: rounded(reading.likeRate, 4),
    comment_rate: rounded(reading.commentRate, 5),
    channel_average_views: channel.total_views === null || channel.video_count === null ? null : Math.round(channel.total_views / Math.max(1, channel.video_count)),
    views_vs_channel_average: rounded(reading.viewsVsChannel, 2),
    channel_subscribers: channel.subscribers,
  };
}

function audience(reading: VideoReading): string {
  const { video, channel } = reading;
  const who = channel.category ? `${channel.category.toLowerCase()} viewers` : 'general viewers';
  const language = channel.language ? `${channel.language}-speaking ` : '';
  const format = video.kind === 'short' ? 'scrolling Shorts on a phone, who decide in a second or two' : (video.duration_seconds ?? 0) > 1200 ? 'ready to sit through a long video' : 'looking for a focused video of a few minutes';
  const subscribers = channel.subscribers;
  const size = subscribers === null ? 'a following of unknown size' : subscribers >= 1_000_000 ? 'a large, established following' : subscribers >= 10_000 ? 'a mid-sized following' : 'a small, growing following';
  return `${language}${who} ${format}; the channel has ${size} (${count(channel.subscribers)} subscribers).`;
}

function suggestions(context: AspectContext): string[] {
  const { reading } = context;
  const { video } = reading;
  const tips: string[] = [];
  const hook = opening(context);
  if (reading.segments.length > 0 && (hook.titleAt === null || hook.titleAt > 10)) {
    tips.push(`Say what the video is about in the first 5 seconds${hook.titleAt === null ? '' : ` (the title is only spoken at ${clock(hook.titleAt)})`}.`);
  }
  if (video.title.length > 60) tips.push(`Shorten the title: it is ${video.title.length} characters and about 60 show in search results.`);
  if (reading.likeRate !== null && reading.likeRate < 0.02) tips.push(`Ask for likes: ${percent(reading.likeRate)} of viewers liked it, below the 2–4% that is common.`);
  if (reading.commentRate !== null && reading.commentRate < 0.0005) tips.push('End with a question to the viewers: comments are rare on this video.');
  if (reading.captions === 'auto') tips.push('Upload written captions: this video only has auto-generated ones.');
  if (reading.captions === null && reading.channel.category !== 'Music') tips.push('Add captions: the video has none.');
  if (video.kind !== 'short' && (video.duration_seconds ?? 0) > 1200) tips.push('Add chapters to the description: the video is long and viewers jump to what they need.');
  if (reading.viewsVsChannel !== null && reading.viewsVsChannel < 0.5) tips.push(`Rework the title and thumbnail: it has ${percent(reading.viewsVsChannel)} of the channel's usual views per video.`);
  if (reading.keywords.length > 0) tips.push(`Put ${quote(reading.keywords[0]!)} in the description and tags: it is what the video keeps talking about.`);
  tips.push(
    'Test a second thumbnail against the current one.',
    video.kind === 'short' ? 'Link the Short to a related long video, so its viewers have somewhere to go next.' : 'Cut a Short from the strongest moment and link it back to this video.',
    'Pin a comment that asks viewers what to cover next.',
    'Add an end screen pointing to the next video to watch.',
  );
  return tips.slice(0, itemsWanted(context, 4));
}

export const ASPECTS: Record<Aspect, AspectProducer> = {
  summary: {
    heading: 'Summary',
    key: 'summary',
    data: (context) => summarySentences(context).join(' '),
    text: (context) => {
      const sentences = summarySentences(context);
      const wanted = context.prompt.sentences ?? (context.prompt.brevity === 'brief' ? 1 : sentences.length);
      return sentences.slice(0, wanted).join(' ');
    },
  },
  moments: {
    heading: 'Key moments',
    key: 'key_moments',
    data: momentLines,
    text: (context) => {
      const lines = momentLines(context);
      return lines.length ? lines.map((line) => `${line.timestamp} — ${line.description}`).join('\n') : noSpeech(context.reading);
    },
  },
  transcript: {
    heading: 'Transcript',
    key: 'transcript',
    data: (context) => context.reading.segments.map((segment) => ({ start: clock(segment.start), end: clock(segment.end), text: segment.text })),
    text: (context) => {
      const { segments, captions } = context.reading;
      if (segments.length === 0) return noSpeech(context.reading);
      const shown = context.prompt.count === undefined ? segments : segments.slice(0, context.prompt.count);
      return [`(${captions === 'human' ? 'written captions' : 'auto-generated captions'})`, ...shown.map((segment) => `[${clock(segment.start)}] ${segment.text}`)].join('\n');
    },
  },
  hook: {
    heading: 'Hook',
    key: 'hook',
    data: (context) => {
      const hook = opening(context);
      return { first_seconds: hook.seconds, said: hook.segments.map((segment) => segment.text).join(' '), title_spoken_at: hook.titleAt === null ? null : clock(hook.titleAt) };
    },
    text: (context) => {
      const hook = opening(context);
      if (context.reading.segments.length === 0) return `Nothing is said in the first ${hook.seconds} seconds. ${noSpeech(context.reading)}`;
      const said = hook.segments.length ? quoteEnding(hook.segments.map((segment) => segment.text).join(' ')) : 'nothing yet (the speech starts later).';
      const title = hook.titleAt === null ? 'The title is never said aloud.' : `The title is said at ${clock(hook.titleAt)}${hook.titleAt <= 10 ? ', early enough to hold viewers who came for it' : ', late: viewers may leave before they hear what the video is about'}.`;
      return `In the first ${hook.seconds} seconds: ${said} ${title}`;
    },
  },
  topics: {
    heading: 'Topics',
    key: 'topics',
    data: (context) => context.reading.keywords.slice(0, itemsWanted(context, 6)),
    text: (context) => bullets(context.reading.keywords.slice(0, itemsWanted(context, 6))),
  },
  performance: {
    heading: 'Performance',
    key: 'statistics',
    data: (context) => statistics(context.reading),
    text: (context) => {
      const stats = statistics(context.reading);
      return bullets([
        `${count(stats.views)} views, ${count(stats.likes)} likes (${percent(context.reading.likeRate)} of viewers), ${count(stats.comments)} comments.`,
        stats.views_vs_channel_average === null ? "Its views against the channel's average are unknown." : `${stats.views_vs_channel_average}× the channel's average of ${count(stats.channel_average_views)} views per video.`,
        `The channel has ${count(stats.channel_subscribers)} subscribers.`,
      ]);
    },
  },
  audience: { heading: 'Audience', key: 'audience', data: (context) => audience(context.reading), text: (context) => audience(context.reading) },
  tone: {
    heading: 'Tone',
    key: 'tone',
    data: (context) => context.reading.tone,
    text: (context) =>
      context.reading.segments.length === 0
        ? `No speech to judge the tone by. ${noSpeech(context.reading)}`
        : `${context.reading.tone[0]!.toUpperCase()}${context.reading.tone.slice(1)}: judged from the words of the ${context.reading.captions === 'human' ? 'written' : 'auto-generated'} captions.`,
  },
  visual: {
    heading: 'Visuals',
    key: 'visual',
    data: (context) => ({
      available: false,
      note: visualNote(context),
      aspect_ratio: context.reading.video.kind === 'short' ? '9:16' : '16:9',
      thumbnail_url: context.reading.video.thumbnail_url,
    }),
    text: visualNote,
  },
  advice: { heading: 'Suggestions', key: 'suggestions', data: suggestions, text: (context) => bullets(suggestions(context)) },
};

function visualNote(context: AspectContext): string {
  const frame = context.reading.video.kind === 'short' ? 'a vertical 9:16 Short' : 'a horizontal 16:9 video';
  return `The sample world has no pictures: scenes, colours, on-screen text and the thumbnail are not simulated, so nothing visual can be described beyond the format (${frame}). With the hosted service the vision model samples about one frame per second, at ${context.resolution === 'low' ? 'reduced detail (media_resolution low)' : 'full detail (media_resolution default)'}.`;
}
