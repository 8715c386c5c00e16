/**
 * The sample world's stand-in for the vision model: a small deterministic analyst. It reads what
 * the prompt asks for (prompt.ts) and answers it from the video's own content — title, transcript
 * with timings, duration, statistics and the channel's (video-reading.ts) — as text, or as JSON
 * when the prompt asks for JSON. Every answer says it comes from the sample world.
 */
import type { PlatformChannel, PlatformVideo } from '../../../platform/platform.js';
import type { Transcript } from '../../../platform/transcript.js';
import { ASPECTS, type AspectContext } from './aspects.js';
import { readAnswerShape } from './answer-shape.js';
import { readPrompt, type Aspect } from './prompt.js';
import { shapedAnswer } from './shaped-answer.js';
import { readVideo, withinWindow, type VideoReading } from './video-reading.js';

export interface AnalysisRequest {
  prompt: string;
  resolution: 'low' | 'default';
  video: PlatformVideo;
  channel: PlatformChannel;
  transcript: Transcript | null;
}

export const SAMPLE_WORLD_NOTE = "sample world: simulated from the video's title, transcript and statistics; no vision model watched it";

/** What a prompt that names no aspect gets. */
const DEFAULT_ASPECTS: Aspect[] = ['summary', 'moments', 'performance', 'audience'];

export function analyzeVideo(request: AnalysisRequest): string {
  const prompt = readPrompt(request.prompt);
  const whole = readVideo(request.video, request.channel, request.transcript);
  // A prompt that names a part of the video ("shots in 4:00–8:00") is answered about that part alone.
  const reading = prompt.window ? withinWindow(whole, prompt.window) : whole;
  const context: AspectContext = { reading, prompt, resolution: request.resolution };
  const aspects = prompt.aspects.length ? prompt.aspects : DEFAULT_ASPECTS;
  return prompt.json ? jsonAnswer(context, aspects, request.prompt) : textAnswer(context, aspects);
}

function textAnswer(context: AspectContext, aspects: Aspect[]): string {
  const { video } = context.reading;
  const header = `[Sample world] Analysis of “${video.title}” (${video.video_id}), simulated from its title, transcript and statistics; no vision model watched it.`;
  if (aspects.length === 1) return `${header}\n\n${ASPECTS[aspects[0]!].text(context)}\n`;
  const sections = aspects.map((aspect) => `${ASPECTS[aspect].heading}:\n${ASPECTS[aspect].text(context)}`);
  return `${header}\n\n${sections.join('\n\n')}\n`;
}

function jsonAnswer(context: AspectContext, aspects: Aspect[], prompt: string): string {
  let body: Record<string, unknown> = {};
  const fields = readAnswerShape(prompt);
  if (fields.length > 0) {
    const answer = shapedAnswer(fields, context, (key) => fieldFor(key, context));
    body = answer.body;
    if (answer.unfilled.length > 0) body._unfilled = answer.unfilled;
  } else {
    const { video, channel, url } = context.reading;
    body.video = { video_id: video.video_id, title: video.title, url, channel: channel.title, duration_seconds: video.duration_seconds };
    for (const aspect of aspects) body[ASPECTS[aspect].key] = ASPECTS[aspect].data(context);
  }
  body._source = SAMPLE_WORLD_NOTE;
  return JSON.stringify(body, null, 2);
}

type Source = (context: AspectContext, reading: VideoReading) => unknown;

/** Key names people use for a fact of the video, most specific first. */
const FIELD_SOURCES: ReadonlyArray<[RegExp, Source]> = [
  [/^(video_?)?id$/, (_, r) => r.video.video_id],
  [/^(video_?)?(url|link)$/, (_, r) => r.url],
  [/^(video_?)?(title|name)$/, (_, r) => r.video.title],
  [/handle/, (_, r) => r.channel.handle],
  [/subscriber/, (_, r) => r.channel.subscribers],
  [/^(channel|creator|author|uploader)(_?(name|title))?$/, (_, r) => r.channel.title],
  [/duration|length|runtime/, (_, r) => r.video.duration_seconds],
  [/^(views?|view_?count|total_?views)$/, (_, r) => r.video.views],
  [/^(likes?|like_?count)$/, (_, r) => r.video.likes],
  [/^(comments?|comment_?count)$/, (_, r) => r.video.comments],
  [/engagement/, (_, r) => (r.video.likes === null || r.video.comments === null || r.video.views === null ? null : Number(((r.video.likes + r.video.comments) / Math.max(1, r.video.views)).toFixed(4)))],
  [/publish|upload|^date$/, (_, r) => r.video.published_at],
  [/categor|genre/, (_, r) => r.channel.category],
  [/language/, (_, r) => r.channel.language],
  [/^(kind|format|type)$/, (_, r) => r.video.kind],
  [/hashtag/, (c) => (ASPECTS.topics.data(c) as string[]).map((topic) => `#${topic.replace(/\s+/g, '')}`)],
  [/summar|descri|overview|synopsis|tl_?dr|gist|recap|about/, (c) => ASPECTS.summary.data(c)],
  [/moment|timestamp|chapter|highlight|timeline|time_?code/, (c) => ASPECTS.moments.data(c)],
  [/transcri|caption|subtitle/, (c) => ASPECTS.transcript.data(c)],
  [/hook|intro|opening/, (c) => ASPECTS.hook.data(c)],
  [/topic|keyword|tag|theme|subject/, (c) => ASPECTS.topics.data(c)],
  [/stat|performance|metric/, (c) => ASPECTS.performance.data(c)],
  [/audience|viewer|demographic/, (c) => ASPECTS.audience.data(c)],
  [/tone|sentiment|mood|emotion|vibe/, (c) => ASPECTS.tone.data(c)],
  [/visual|thumbnail|scene|frame|colou?r/, (c) => ASPECTS.visual.data(c)],
  [/suggest|improve|tip|recommend|advice|feedback/, (c) => ASPECTS.advice.data(c)],
];

/** The video's value for a key the prompt named; undefined for one the sample world cannot tell. */
function fieldFor(key: string, context: AspectContext): unknown {
  const normalized = key.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const source = FIELD_SOURCES.find(([pattern]) => pattern.test(normalized));
  return source ? (source[1](context, context.reading) ?? undefined) : undefined;
}
