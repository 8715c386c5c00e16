/**
 * The download size rule, judged before any work: at most `downloadMaxSeconds` of media and
 * `downloadMaxBytes` of output for the requested section, the output estimated from the nominal
 * bitrate of the platform's streams for that format and quality (what the hosted service's files
 * weigh). The sample world renders far smaller files, so a request that passes never produces
 * more than the estimate. Subtitles have no length limit.
 */
import { badRequest } from '../../core/errors.js';
import { formatMediaTime } from '../../core/media-time.js';
import type { PlanLimits } from './plans.js';

/** Kilobits per second of media: H.264 video plus 128 kbps AAC; MP3 audio at 128 kbps. */
export const NOMINAL_KBPS = {
  video: { 360: 700 + 128, 480: 1200 + 128, 720: 2500 + 128, 1080: 4500 + 128 },
  audio: 128,
} as const;

export type VideoHeight = keyof typeof NOMINAL_KBPS.video;
export type SizedFormat = { format: 'video'; height: VideoHeight } | { format: 'audio' };

export function nominalKbps(media: SizedFormat): number {
  return media.format === 'audio' ? NOMINAL_KBPS.audio : NOMINAL_KBPS.video[media.height];
}

/** Bytes a section of `seconds` weighs at the nominal bitrate. */
export function estimatedBytes(media: SizedFormat, seconds: number): number {
  return Math.ceil((seconds * nominalKbps(media) * 1000) / 8);
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1_000_000).toLocaleString('en-US')} MB`;

/** Throws the 400 that says how much to clip when the section breaks either limit. */
export function checkDownloadSize(media: SizedFormat, seconds: number, limits: Pick<PlanLimits, 'downloadMaxSeconds' | 'downloadMaxBytes'>): void {
  const what = media.format === 'audio' ? 'audio' : `${media.height}p video`;
  const byBytes = Math.floor((limits.downloadMaxBytes * 8) / (nominalKbps(media) * 1000));
  const allowed = Math.min(limits.downloadMaxSeconds, byBytes);
  if (seconds <= allowed) return;
  const reason =
    allowed === byBytes
      ? `would be about ${megabytes(estimatedBytes(media, seconds))} of ${what}, over the ${megabytes(limits.downloadMaxBytes)} download limit`
      : `is ${formatMediaTime(seconds)} of media, over the ${formatMediaTime(limits.downloadMaxSeconds)} download limit`;
  throw badRequest(
    `Invalid request: the requested section (${formatMediaTime(seconds)}) ${reason}. ` +
      `Clip it with start and end to at most ${formatMediaTime(allowed)} — ${formatMediaTime(seconds - allowed)} shorter.`,
    media.format === 'video' ? 'A lower quality allows a longer section; audio and subtitles allow more still.' : undefined,
  );
}

/**
 * The same rule on a measured estimate: `estimatedBytes` for a section of `seconds`, from the real
 * streams' sizes or bitrates (the live platform's metadata, read before any media is fetched).
 */
export function checkEstimatedDownloadSize(estimatedBytes: number, seconds: number, what: string, limits: Pick<PlanLimits, 'downloadMaxSeconds' | 'downloadMaxBytes'>): void {
  const bytesPerSecond = seconds > 0 ? estimatedBytes / seconds : 0;
  const byBytes = bytesPerSecond > 0 ? Math.floor(limits.downloadMaxBytes / bytesPerSecond) : Infinity;
  const allowed = Math.min(limits.downloadMaxSeconds, byBytes);
  if (seconds <= allowed) return;
  const reason =
    allowed === byBytes
      ? `would be about ${megabytes(estimatedBytes)} of ${what} (the platform's own streams), over the ${megabytes(limits.downloadMaxBytes)} download limit`
      : `is ${formatMediaTime(seconds)} of media, over the ${formatMediaTime(limits.downloadMaxSeconds)} download limit`;
  throw badRequest(
    `Invalid request: the requested section (${formatMediaTime(seconds)}) ${reason}. ` +
      `Clip it with start and end to at most ${formatMediaTime(allowed)} — ${formatMediaTime(seconds - allowed)} shorter.`,
    what.endsWith('video') ? 'A lower quality allows a longer section; audio and subtitles allow more still.' : undefined,
  );
}
