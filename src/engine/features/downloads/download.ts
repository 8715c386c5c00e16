/**
 * `POST /api/download-video`: everything that can be judged from the request is judged before any
 * work (the link, the times, the size rule, subtitles that do not exist, the tools); then the
 * ledger admits the request (cache hit, or a slot under the caps) and the file is made — or an
 * identical one in progress is waited for. Only a 200 counts toward the hourly cap.
 *
 * The sample world's files are rendered (sample-plan.ts); a platform with a media source (the live
 * platform) fetches them (media-plan.ts). Both go through the same ledger, cache and answer.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import type { MediaProgress } from '../../platform/media.js';
import { publicFileUrl } from '../public-url.js';
import { ledgerFor } from './ledger.js';
import { mediaPlan } from './media-plan.js';
import type { DownloadInput, DownloadPlan } from './plan.js';
import { samplePlan } from './sample-plan.js';
import { SLOT_HEARTBEAT_MS } from './slots.js';

type DownloadAnswer = RouteOutput<'download'>;

/** How often a request waiting for an identical render looks again. */
const WAIT_POLL_MS = 50;

const round3 = (seconds: number) => Math.round(seconds * 1000) / 1000;

export async function downloadVideo(request: RequestContext, input: DownloadInput): Promise<DownloadAnswer> {
  const { engine } = request;
  const platform = await engine.platform();
  const plan = platform.media ? await mediaPlan(request, input, platform.media) : await samplePlan(request, input);
  const { video, section, target, height, requestedHeight } = plan;
  const seconds = section.end - section.start;
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
    ...(height && requestedHeight && plan.lowerQualityReason
      ? { requested_quality: requestedHeight, quality_note: `Delivered ${height}p, lower than the ${requestedHeight}p requested: ${plan.lowerQualityReason}.` }
      : {}),
    start_seconds: section.startSeconds,
    end_seconds: section.endSeconds,
  });

  const ledger = ledgerFor(engine);
  await ledger.sweep();
  // A cached answer needs nothing more; anything to make is judged first, before a slot is taken or anything counts.
  if (!ledger.cache.isFresh(await ledger.current(target.key))) await plan.prepare();
  const admission = await ledger.admit(request, target);
  if (admission.kind === 'hit') return answer(true, admission.row.size_bytes ?? 0, admission.row.path);

  const { slotId } = admission;
  // The fetch's own estimate of when it ends replaces the rough one (the parallel cap's wait guidance).
  let expectedDoneAt: number | undefined;
  const heartbeat = setInterval(() => {
    // The engine may have closed under a cancelled request; its slot goes with it.
    ledger.slots.renew(slotId, expectedDoneAt).catch(() => undefined);
  }, SLOT_HEARTBEAT_MS);
  heartbeat.unref();
  const onProgress = (progress: MediaProgress) => {
    // Whole milliseconds (stored in an integer column): yt-dlp may report a fractional ETA.
    if (progress.eta_seconds !== null) expectedDoneAt = engine.clock.now() + Math.ceil(progress.eta_seconds * 1000);
    request.onProgress?.(progress);
  };
  try {
    let step: 'ready' | 'wait' | 'render' = admission.kind;
    while (step === 'wait') {
      await sleep(WAIT_POLL_MS, undefined, { signal: request.signal });
      step = await ledger.recheck(target, slotId);
    }
    // A request that waited for an identical render is answered from the cache.
    const cached = step === 'ready';
    if (step === 'render') {
      const size = await plan.make(ledger.cache.file(target.path), { signal: request.signal, onProgress });
      await ledger.rendered(target, slotId, size, round3(seconds));
    }
    const row = await ledger.current(target.key);
    const relativePath = row?.state === 'ready' ? row.path : target.path;
    const size = row?.size_bytes ?? (await fs.promises.stat(ledger.cache.file(relativePath))).size;
    await ledger.answered(request.user.userId, slotId);
    return answer(cached, size, relativePath);
  } catch (error) {
    await ledger.failed(target, slotId).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

export type { DownloadPlan };
