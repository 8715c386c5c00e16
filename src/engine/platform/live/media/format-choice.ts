/**
 * What a download fetches, chosen from yt-dlp's metadata before any media is fetched — the
 * selector `bv*[height<=H][vcodec^=avc1]+ba[acodec^=mp4a]` and its fallbacks, evaluated here so
 * that the size rule is judged on exactly the streams that will be fetched, and the delivered
 * height is known before the cache is asked:
 *   1. the best H.264 stream no higher than H (video-only with the best AAC audio, or one that
 *      carries AAC itself): nothing is re-encoded;
 *   2. else the best stream of any codec no higher than H, with the best audio: re-encoded;
 *   3. else (no stream that low) the lowest stream, scaled down to H: re-encoded.
 * Audio is the best audio stream (the original language first), made MP3 at 128 kbps. Subtitles
 * are the English captions, human-authored first, else auto-generated — also carried by a video's
 * MP4 as its subtitle track.
 */
import { ServiceError } from '../../../../core/errors.js';
import type { MediaChoice, MediaRequest } from '../../media.js';
import type { YtdlpFormat, YtdlpInfo, YtdlpTrack } from './ytdlp-info.js';

/** MP3 made from the audio stream (`--audio-quality 128K`). */
export const MP3_KBPS = 128;
/** When the metadata gives neither a size nor a bitrate: H.264 at the platform's usual rates, plus AAC. */
const FALLBACK_KBPS = (height: number) => (height <= 360 ? 700 : height <= 480 ? 1200 : height <= 720 ? 2500 : 4500) + 128;

/** What `fetch` reads back from a choice. */
export interface YtdlpChoice {
  /** `-f` of yt-dlp: `137+140`, `18`, … */
  formatSelector: string;
  /** Scale the picture down to this height (no stream was that low). */
  scaleTo: number | null;
  /** The caption track (subtitles, or a video's subtitle track): its language and whether it is auto-generated. */
  captions: { language: string; auto: boolean } | null;
  /** The streams, for sizes and progress. */
  formats: YtdlpFormat[];
}

const hasVideo = (format: YtdlpFormat) => Boolean(format.vcodec && format.vcodec !== 'none');
const hasAudio = (format: YtdlpFormat) => Boolean(format.acodec && format.acodec !== 'none');
const isH264 = (format: YtdlpFormat) => /^(avc1|h264)/i.test(format.vcodec ?? '');
const isAac = (format: YtdlpFormat) => /^(mp4a|aac)/i.test(format.acodec ?? '');
/** Storyboards (mhtml) and DRM streams cannot be fetched. */
const fetchable = (format: YtdlpFormat) => Boolean(format.url) && format.protocol !== 'mhtml' && format.ext !== 'mhtml' && !format.has_drm;

const byQuality = (a: YtdlpFormat, b: YtdlpFormat) =>
  (b.height ?? 0) - (a.height ?? 0) || (b.fps ?? 0) - (a.fps ?? 0) || (b.tbr ?? b.vbr ?? 0) - (a.tbr ?? a.vbr ?? 0);
const byAudio = (a: YtdlpFormat, b: YtdlpFormat) =>
  (b.language_preference ?? 0) - (a.language_preference ?? 0) || (b.abr ?? b.tbr ?? 0) - (a.abr ?? a.tbr ?? 0);

/** The whole stream's bytes: its size, else its bitrate over the video's length. */
function streamBytes(format: YtdlpFormat, durationSeconds: number): number {
  const size = format.filesize ?? format.filesize_approx;
  if (size) return size;
  const kbps = format.tbr ?? ((format.vbr ?? 0) + (format.abr ?? 0) || null);
  return Math.ceil(((kbps ?? FALLBACK_KBPS(format.height ?? 720)) * 1000 * durationSeconds) / 8);
}

function bestAudio(formats: YtdlpFormat[], aacOnly: boolean): YtdlpFormat | undefined {
  return formats.filter((format) => hasAudio(format) && !hasVideo(format) && (!aacOnly || isAac(format))).sort(byAudio)[0];
}

interface Picked {
  streams: YtdlpFormat[];
  height: number;
  reencode: boolean;
  scaleTo: number | null;
}

function pickVideo(formats: YtdlpFormat[], wanted: number): Picked | null {
  const low = formats.filter((format) => hasVideo(format) && (format.height ?? 0) > 0 && format.height! <= wanted);
  const pair = (video: YtdlpFormat, aacOnly: boolean): YtdlpFormat[] | null => {
    if (hasAudio(video) && (!aacOnly || isAac(video))) return [video];
    const audio = bestAudio(formats, aacOnly);
    return audio ? [video, audio] : null;
  };
  // 1. H.264 no higher than asked, with AAC: fetched as it is.
  for (const video of low.filter(isH264).sort(byQuality)) {
    const streams = pair(video, true);
    if (streams) return { streams, height: video.height!, reencode: false, scaleTo: null };
  }
  // 2. Any codec no higher than asked: re-encoded to H.264/AAC.
  for (const video of [...low].sort(byQuality)) {
    const streams = pair(video, false);
    if (streams) return { streams, height: video.height!, reencode: true, scaleTo: null };
  }
  // 3. Nothing that low: the lowest stream, scaled down.
  const above = formats.filter((format) => hasVideo(format) && (format.height ?? 0) > wanted).sort((a, b) => byQuality(b, a));
  for (const video of above) {
    const streams = pair(video, false);
    if (streams) return { streams, height: wanted, reencode: true, scaleTo: wanted };
  }
  return null;
}

/** English tracks: `en` first, then `en-orig`, then other English variants. */
function englishTrack(tracks: Record<string, YtdlpTrack[]> | undefined): string | null {
  const languages = Object.keys(tracks ?? {}).filter((language) => /^en(-|$)/i.test(language) && (tracks![language] ?? []).some((track) => track.url));
  const rank = (language: string) => (language === 'en' ? 0 : language === 'en-orig' ? 1 : 2);
  return languages.sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

function noStream(info: YtdlpInfo, what: string): ServiceError {
  return new ServiceError({ status: 400, code: 'video_unavailable', message: `Video unavailable: the platform offers no ${what} stream of ${info.id} that can be fetched.` });
}

export function chooseFormats(info: YtdlpInfo, request: MediaRequest): MediaChoice & { source: YtdlpChoice } {
  const duration = info.duration ?? request.section.duration;
  const share = duration > 0 ? Math.min(1, request.section.duration / duration) : 1;
  const formats = (info.formats ?? []).filter(fetchable);
  if (request.format === 'subtitles') {
    const human = englishTrack(info.subtitles);
    const auto = human ? null : englishTrack(info.automatic_captions);
    const language = human ?? auto;
    if (!language) {
      throw new ServiceError({
        status: 400,
        code: 'subtitles_unavailable',
        message: `Invalid request: "${info.title ?? info.id}" (${info.id}) has no English subtitles, human or auto-generated.`,
        hint: 'Download its video or audio instead (format video or audio).',
      });
    }
    return {
      format: 'subtitles',
      height: null,
      estimated_bytes: 0,
      reencode: false,
      captions: human ? 'human' : 'auto',
      source: { formatSelector: '', scaleTo: null, captions: { language, auto: !human }, formats: [] },
    };
  }
  if (request.format === 'audio') {
    const audio = bestAudio(formats, false) ?? formats.filter(hasAudio).sort((a, b) => (a.height ?? 0) - (b.height ?? 0))[0];
    if (!audio) throw noStream(info, 'audio');
    return {
      format: 'audio',
      height: null,
      estimated_bytes: Math.ceil((request.section.duration * MP3_KBPS * 1000) / 8),
      reencode: true,
      captions: null,
      source: { formatSelector: audio.format_id, scaleTo: null, captions: null, formats: [audio] },
    };
  }
  const picked = pickVideo(formats, request.height ?? 720);
  if (!picked) throw noStream(info, 'video');
  // The MP4 carries the English captions as a subtitle track, when the video has some.
  const human = englishTrack(info.subtitles);
  const auto = human ? null : englishTrack(info.automatic_captions);
  const bytes = picked.streams.reduce((sum, stream) => sum + streamBytes(stream, duration), 0);
  return {
    format: 'video',
    height: picked.height,
    estimated_bytes: Math.ceil(bytes * share),
    reencode: picked.reencode,
    captions: human ? 'human' : auto ? 'auto' : null,
    source: {
      formatSelector: picked.streams.map((stream) => stream.format_id).join('+'),
      scaleTo: picked.scaleTo,
      captions: human || auto ? { language: (human ?? auto)!, auto: !human } : null,
      formats: picked.streams,
    },
  };
}
