/**
 * `POST /api/download-video`: everything that can be judged from the request is judged before any
 * work (the link, the times, the size rule, subtitles that do not exist, ffmpeg); then the ledger
 * admits the request (cache hit, or a slot under the caps) and the file is rendered — or an
 * identical render in progress is waited for. Only a 200 counts toward the hourly cap.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceError, upstreamError } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import { DOWNLOAD_QUALITIES } from '../../../core/schemas/media.js';
import type { RequestContext } from '../../context.js';
import { hasFault } from '../../faults.js';
import { checkDownloadSize, type VideoHeight } from '../../limits/download-size.js';
import { requireFfmpeg } from '../../media/ffmpeg.js';
import { simulateWork, workDuration } from '../../simulated-work.js';
import { publicFileUrl } from '../public-url.js';
import type { PlatformVideo } from '../../platform/platform.js';
import { resolveVideoLink } from '../video-link.js';
import { downloadFileName } from './file-names.js';
import { ledgerFor, type CacheTarget } from './ledger.js';
import { renderDownloadFile, type DownloadFile } from './render-file.js';
import { requestedSection, type Section } from './section.js';
import { SLOT_HEARTBEAT_MS } from './slots.js';

type DownloadInput = ParsedInput<'download'>;
type DownloadFormat = DownloadInput['format'];
type DownloadAnswer = RouteOutput<'download'>;

/** How often a request waiting for an identical render looks again. */
const WAIT_POLL_MS = 50;
/** Rough render cost per second of media, for the parallel cap's wait guidance. */
const RENDER_MS_PER_SECOND = { video: { 360: 2, 480: 3, 720: 5, 1080: 10 } as Record<number, number>, audio: 0.5, subtitles: 0 };

const round3 = (seconds: number) => Math.round(seconds * 1000) / 1000;

export async function downloadVideo(request: RequestContext, input: DownloadInput): Promise<DownloadAnswer> {
  const { engine } = request;
  const video = await resolveVideoLink(engine, input.video_url);
  const section = requestedSection(video.duration_seconds, input.format, input.start, input.end);
  const requestedHeight = input.format === 'video' ? Number.parseInt(input.quality, 10) : null;
  const seconds = section.end - section.start;
  if (input.format !== 'subtitles') {
    checkDownloadSize(requestedHeight ? { format: 'video', height: requestedHeight as VideoHeight } : { format: 'audio' }, seconds, request.limits);
  }
  // What the platform delivers may be lower than asked; the file and its cache entry are of that height.
  const height = requestedHeight && deliveredHeight(request, requestedHeight);
  const target = cacheTarget(request, { videoId: video.video_id, title: video.title, format: input.format, height }, section, video.duration_seconds);
  // The file's path as the cache holds it (made from the title when it was first rendered).
  const answer = (cached: boolean, sizeBytes: number, relativePath = target.path): DownloadAnswer => ({
    success: true,
    download_url: publicFileUrl(request, relativePath),
    video_id: video.video_id,
    title: video.title,
    duration_seconds: round3(seconds),
    size_bytes: sizeBytes,
    cached,
    format: input.format,
    quality: height ?? 0,
    ...(height && requestedHeight && height < requestedHeight
      ? { requested_quality: requestedHeight, quality_note: `Delivered ${height}p, lower than the ${requestedHeight}p requested: the platform did not deliver ${requestedHeight}p for this video.` }
      : {}),
    start_seconds: section.startSeconds,
    end_seconds: section.endSeconds,
  });

  const ledger = ledgerFor(engine);
  ledger.sweep();
  const needsFfmpeg = input.format !== 'subtitles';
  // A cached answer needs nothing more. Anything to render is judged first: subtitles that do not
  // exist (400), no ffmpeg (503) — before a slot is taken or anything counts.
  let file: DownloadFile | undefined;
  if (!ledger.cache.isFresh(ledger.cache.get(target.key))) {
    file = await describeFile(request, video, input.format, height, section);
    if (needsFfmpeg) await requireFfmpeg();
  }
  const admission = ledger.admit(request, target);
  if (admission.kind === 'hit') return answer(true, admission.row.size_bytes ?? 0, admission.row.path);

  const { slotId } = admission;
  const heartbeat = setInterval(() => {
    try {
      ledger.slots.renew(slotId);
    } catch {
      // The engine closed under a cancelled request; its slot goes with it.
    }
  }, SLOT_HEARTBEAT_MS);
  heartbeat.unref();
  try {
    let step: 'ready' | 'wait' | 'render' = admission.kind;
    while (step === 'wait') {
      await sleep(WAIT_POLL_MS, undefined, { signal: request.signal });
      step = ledger.recheck(target, slotId);
    }
    // A request that waited for an identical render is answered from the cache.
    const cached = step === 'ready';
    if (step === 'render') {
      await simulateWork(engine.settings, 'download', target.key, request.signal);
      if (hasFault(engine.settings, 'download-upstream')) {
        throw upstreamError(`The video platform did not deliver ${video.video_id} (upstream error); nothing was counted. Retry in a while; clipping with start and end helps long videos.`);
      }
      if (needsFfmpeg) await requireFfmpeg();
      file ??= await describeFile(request, video, input.format, height, section);
      const size = await renderDownloadFile(file, ledger.cache.file(target.path), { dataDir: engine.dataDir, signal: request.signal, settings: engine.settings });
      ledger.rendered(target, slotId, size, round3(seconds));
    }
    const row = ledger.cache.get(target.key);
    const relativePath = row?.state === 'ready' ? row.path : target.path;
    const size = row?.size_bytes ?? (await fs.promises.stat(ledger.cache.file(relativePath))).size;
    ledger.answered(request.user.userId, slotId);
    return answer(cached, size, relativePath);
  } catch (error) {
    ledger.failed(target, slotId);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

/** The heights the platform delivers, lowest first (the qualities a download may ask for). */
const HEIGHTS = DOWNLOAD_QUALITIES.map((quality) => Number.parseInt(quality, 10));

/** The asked height, or the next lower one under the partial-quality fault (360p has none lower). */
function deliveredHeight(request: RequestContext, asked: number): number {
  if (!hasFault(request.engine.settings, 'download-partial-quality')) return asked;
  return HEIGHTS.filter((height) => height < asked).at(-1) ?? asked;
}

/** What is rendered: the video's transcript and channel are read only when a file is to be made. */
async function describeFile(request: RequestContext, video: PlatformVideo, format: DownloadFormat, height: number | null, section: Section): Promise<DownloadFile> {
  const platform = await request.engine.platform();
  const transcript = await platform.transcript(video.video_id);
  if (format === 'subtitles' && !transcript) {
    throw new ServiceError({
      status: 400,
      code: 'subtitles_unavailable',
      message: `Invalid request: "${video.title}" (${video.video_id}) has no subtitles, human or auto-generated: it has no speech.`,
      hint: 'Download its video or audio instead (format video or audio).',
    });
  }
  const channel = await platform.channelById(video.channel_id);
  return {
    format,
    height,
    subject: {
      videoId: video.video_id,
      channelId: video.channel_id,
      title: video.title,
      channelTitle: channel?.title ?? video.channel_id,
      portrait: video.kind === 'short',
      transcript,
      section: { start: section.start, duration: section.end - section.start },
    },
  };
}

interface Wanted {
  videoId: string;
  title: string;
  format: DownloadFormat;
  height: number | null;
}

/** The cache entry a request names: one per (video, format, quality, time range). */
function cacheTarget(request: RequestContext, wanted: Wanted, section: Section, videoSeconds: number): CacheTarget {
  const { format, height, videoId } = wanted;
  const ms = (seconds: number) => Math.round(seconds * 1000);
  const variant = format === 'subtitles' ? 'subtitles' : [format, height ? `${height}p` : null, ms(section.start), ms(section.end)].filter((part) => part !== null).join('-');
  const whole = section.start === 0 && section.end === videoSeconds;
  const name = downloadFileName({
    title: wanted.title,
    videoId,
    format,
    height,
    clip: format === 'subtitles' || whole ? null : { start: section.start, end: section.end },
  });
  const seconds = section.end - section.start;
  const perSecond = format === 'video' ? RENDER_MS_PER_SECOND.video[height!]! : RENDER_MS_PER_SECOND[format];
  return {
    key: `${videoId}|${variant}`,
    videoId,
    format,
    path: `downloads/${videoId}/${variant}/${name}`,
    expectedMs: 1000 + seconds * perSecond + workDuration(request.engine.settings, 'download').max_ms,
  };
}
