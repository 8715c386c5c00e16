/**
 * A download from the sample world: its media are rendered with ffmpeg from the world's data
 * (render-file.ts). The size rule is judged on the platform's nominal bitrates; the partial-quality
 * fault delivers a lower height, the upstream fault fails the render.
 */
import { ServiceError, upstreamError } from '../../../core/errors.js';
import { DOWNLOAD_QUALITIES } from '../../../core/schemas/media.js';
import type { RequestContext } from '../../context.js';
import { hasFault } from '../../faults.js';
import { checkDownloadSize, type VideoHeight } from '../../limits/download-size.js';
import { requireFfmpeg } from '../../media/ffmpeg.js';
import { renderSubjectOf } from '../../media/render.js';
import type { PlatformVideo } from '../../platform/platform.js';
import { simulateWork } from '../../simulated-work.js';
import { knownDuration, resolveVideoLink } from '../video-link.js';
import { cacheTarget, type DownloadFormat, type DownloadInput, type DownloadPlan } from './plan.js';
import { renderDownloadFile, type DownloadFile } from './render-file.js';
import { requestedSection, type Section } from './section.js';

/** Rough render cost per second of media, for the parallel cap's wait guidance. */
const RENDER_MS_PER_SECOND = { video: { 360: 2, 480: 3, 720: 5, 1080: 10 } as Record<number, number>, audio: 0.5, subtitles: 0 };

/** The heights the platform delivers, lowest first (the qualities a download may ask for). */
const HEIGHTS = DOWNLOAD_QUALITIES.map((quality) => Number.parseInt(quality, 10));

export async function samplePlan(request: RequestContext, input: DownloadInput): Promise<DownloadPlan> {
  const { engine } = request;
  const read = await resolveVideoLink(engine, input.video_url);
  const video = { ...read, duration_seconds: knownDuration(read) };
  const section = requestedSection(video.duration_seconds, input.format, input.start, input.end);
  const requestedHeight = input.format === 'video' ? Number.parseInt(input.quality, 10) : null;
  if (input.format !== 'subtitles') {
    checkDownloadSize(requestedHeight ? { format: 'video', height: requestedHeight as VideoHeight } : { format: 'audio' }, section.end - section.start, request.limits);
  }
  // What the platform delivers may be lower than asked; the file and its cache entry are of that height.
  const height = requestedHeight && deliveredHeight(request, requestedHeight);
  const perSecond = input.format === 'video' ? RENDER_MS_PER_SECOND.video[height!]! : RENDER_MS_PER_SECOND[input.format];
  const target = cacheTarget(request, { videoId: video.video_id, title: video.title, format: input.format, height }, section, video.duration_seconds, perSecond);
  let file: DownloadFile | undefined;
  return {
    video,
    section,
    format: input.format,
    requestedHeight,
    height,
    lowerQualityReason: height && requestedHeight && height < requestedHeight ? `the platform did not deliver ${requestedHeight}p for this video` : null,
    target,
    // Subtitles that do not exist (400), no ffmpeg (503): judged before a slot is taken or anything counts.
    async prepare() {
      file = await describeFile(request, video, input.format, height, section);
      if (input.format !== 'subtitles') await requireFfmpeg();
    },
    async make(path, { signal }) {
      await simulateWork(engine.settings, 'download', target.key, signal);
      if (hasFault(engine.settings, 'download-upstream')) {
        throw upstreamError(`The video platform did not deliver ${video.video_id} (upstream error); nothing was counted. Retry in a while; clipping with start and end helps long videos.`);
      }
      if (input.format !== 'subtitles') await requireFfmpeg();
      file ??= await describeFile(request, video, input.format, height, section);
      return renderDownloadFile(file, path, { dataDir: engine.dataDir, signal, settings: engine.settings });
    },
  };
}

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
    subject: renderSubjectOf(video, channel, transcript, { start: section.start, duration: section.end - section.start }),
  };
}
