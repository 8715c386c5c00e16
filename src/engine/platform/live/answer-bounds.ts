/**
 * How much of an answer from the platform (or any host it sends us to) is ever read: bodies are
 * streamed and abandoned past their kind's bound, and JSON nested deeper than any real page is
 * refused before anything walks it. Both give a 502 that names the bound, so one hostile answer
 * costs one request, never the whole process. The bounds are generous: real answers are a tenth
 * of them or less (README, "Live platform bounds").
 */
import { ServiceError } from '../../../core/errors.js';

export const ANSWER_BOUNDS = {
  /** InnerTube answers and pages (a channel's largest browse answer is about 2 MB). */
  page: { bytes: 16 * 1024 * 1024, what: 'platform pages' },
  /** A caption track's timed text (a three-hour video's is about 2 MB). */
  captions: { bytes: 8 * 1024 * 1024, what: 'caption tracks' },
  /** yt-dlp's metadata of one video (a few MB with every format). */
  ytdlpInfo: { bytes: 32 * 1024 * 1024, what: 'video metadata' },
} as const;

export type AnswerKind = keyof typeof ANSWER_BOUNDS;

/** Deeper JSON than this is refused (InnerTube's renderers nest about 60 levels). */
export const MAX_JSON_DEPTH = 512;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The 502 for an answer over its bound. */
export function answerTooLarge(request: string, kind: AnswerKind): ServiceError {
  const bound = ANSWER_BOUNDS[kind];
  return new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: `the video platform's answer to ${request} is larger than the ${megabytes(bound.bytes)} bound for ${bound.what}; it was not read further.`,
    hint: 'Real answers are far smaller: the platform (or the origin override) sent something else. Try again later.',
  });
}

/** The 502 for JSON nested deeper than MAX_JSON_DEPTH. */
export function answerTooDeep(request: string): ServiceError {
  return new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: `the video platform's answer to ${request} nests deeper than ${MAX_JSON_DEPTH} levels; it was not read.`,
    hint: 'Real answers nest far less: the platform (or the origin override) sent something else. Try again later.',
  });
}

/** The body as text, or null once it passes `maxBytes` (the rest is not read; the stream is cancelled). */
export async function readBoundedText(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks).toString('utf8');
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
}

/** Whether JSON text nests deeper than `maxDepth` (brackets counted outside strings; nothing is parsed). */
export function nestsDeeper(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return false;
}
