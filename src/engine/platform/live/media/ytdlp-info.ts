/**
 * A video's yt-dlp metadata (the `-J` JSON: title, duration, every stream with its codecs, size
 * or bitrate and URL, caption tracks). From the site: `yt-dlp -J <watch URL>`. With
 * TUBEKIT_PLATFORM_ORIGIN set: `<origin>/ytdlp/<video_id>.info.json`, whose stream and caption
 * URLs point at that origin too — an answer other than 200 stands for yt-dlp's error output.
 * Either way, nothing but metadata is read here: no media.
 */
import { ServiceError } from '../../../../core/errors.js';
import { ANSWER_BOUNDS, answerTooDeep, answerTooLarge, nestsDeeper, readBoundedText } from '../answer-bounds.js';
import { ytdlpFailure } from './ytdlp-failures.js';
import { runYtdlp } from './ytdlp-run.js';
import type { YtdlpTool } from './ytdlp-tool.js';

/** The fields of yt-dlp's format dictionaries that are read. */
export interface YtdlpFormat {
  format_id: string;
  url?: string;
  ext?: string;
  protocol?: string;
  vcodec?: string | null;
  acodec?: string | null;
  width?: number | null;
  height?: number | null;
  fps?: number | null;
  /** Kilobits a second: total, video, audio. */
  tbr?: number | null;
  vbr?: number | null;
  abr?: number | null;
  filesize?: number | null;
  filesize_approx?: number | null;
  language_preference?: number | null;
  has_drm?: boolean;
}

export interface YtdlpTrack {
  ext?: string;
  url?: string;
  name?: string;
}

export interface YtdlpInfo {
  id: string;
  title?: string;
  channel_id?: string;
  duration?: number | null;
  is_live?: boolean | null;
  live_status?: string | null;
  availability?: string | null;
  formats?: YtdlpFormat[];
  subtitles?: Record<string, YtdlpTrack[]>;
  automatic_captions?: Record<string, YtdlpTrack[]>;
  [other: string]: unknown;
}

export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/** yt-dlp's metadata of one video, from the site or the origin override. */
export async function readYtdlpInfo(videoId: string, how: { tool: YtdlpTool; args: string[]; origin?: string; signal?: AbortSignal }): Promise<YtdlpInfo> {
  const text = how.origin ? await fetchOriginInfo(videoId, how.origin, how.signal) : await runYtdlp(how.tool.command, [...how.args, '-J', '--no-playlist', '--', watchUrl(videoId)], { videoId, signal: how.signal });
  if (nestsDeeper(text)) throw answerTooDeep(`yt-dlp's metadata of ${videoId}`);
  let info: YtdlpInfo;
  try {
    info = JSON.parse(text) as YtdlpInfo;
  } catch {
    throw new ServiceError({ status: 502, code: 'upstream_error', message: `yt-dlp's metadata of ${videoId} is not JSON.`, hint: 'Update yt-dlp; if it keeps failing, report it.' });
  }
  if (!info || typeof info !== 'object' || typeof info.id !== 'string') {
    throw new ServiceError({ status: 502, code: 'upstream_error', message: `yt-dlp's metadata of ${videoId} has no video id.` });
  }
  return info;
}

async function fetchOriginInfo(videoId: string, origin: string, signal?: AbortSignal): Promise<string> {
  const url = new URL(`/ytdlp/${videoId}.info.json`, origin);
  let response: Response;
  try {
    response = await fetch(url, { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(20_000)]) : AbortSignal.timeout(20_000) });
  } catch (error) {
    signal?.throwIfAborted();
    throw ytdlpFailure(videoId, `ERROR: urlopen error ${(error as Error).message} (${url.host})`);
  }
  let body: string | null;
  try {
    body = await readBoundedText(response.body, ANSWER_BOUNDS.ytdlpInfo.bytes);
  } catch (error) {
    signal?.throwIfAborted();
    throw ytdlpFailure(videoId, `ERROR: urlopen error ${(error as Error).message} (${url.host})`);
  }
  if (body === null) throw answerTooLarge(`GET ${url.pathname}`, 'ytdlpInfo');
  if (response.status === 200) return body;
  // The origin relays yt-dlp's own error text; any other answer is the origin's, not yt-dlp's.
  if (/^ERROR:/m.test(body)) throw ytdlpFailure(videoId, body);
  throw new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: `The platform origin has no metadata of ${videoId}: GET ${url.pathname} answered HTTP ${response.status}.`,
    hint: `Check the origin (TUBEKIT_PLATFORM_ORIGIN, ${url.origin}) serves /ytdlp/<video_id>.info.json for this video; yt-dlp was not run.`,
  });
}
