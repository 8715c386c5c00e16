/**
 * An analysis by a real vision model, as a job runs it:
 *  - `openai-compatible`: the video is fetched at the resolution's height (the platform's media
 *    source), frames are sampled evenly across it, and they go with the video's words and the
 *    prompt in one chat completion; the frames are the "upload" a repeat within 2 hours reuses;
 *  - `gemini`: the video file is uploaded (Files API), waited for until ACTIVE, and the model is
 *    asked with it; the file's handle is what a repeat within 2 hours reuses.
 * The upload is recorded as soon as it is made, so a job status shows `analyzing` from then on.
 */
import type { EngineContext } from '../../context.js';
import { sampleFrames, type SampledFrame } from '../../media/frames.js';
import type { PlatformProvider, PlatformVideo } from '../../platform/platform.js';
import type { Transcript } from '../../platform/transcript.js';
import { withScratchDir } from '../../scratch.js';
import fs from 'node:fs';
import path from 'node:path';
import { cachedFrames, framesFolder, framesHandle, keepFrames, removeFramesFolder, sweepFrameFolders } from './frame-cache.js';
import { analysisMediaSource, requireFfmpegForAnalysis, type AnalysisMediaSource } from './media-source.js';
import { askGemini, fileState, generateRequest, uploadVideo, waitUntilActive, type GeminiFile } from './providers/gemini.js';
import { MEDIA_PLANS, type MediaResolution } from './providers/media-plan.js';
import type { ModelCall } from './providers/model-http.js';
import { askChatModel, chatRequest } from './providers/openai-compatible.js';
import type { VisionProviderConfig } from './providers/provider-config.js';
import type { VideoContext } from './providers/video-context.js';
import { analysisUploads, handleServes, type UploadHandle } from './uploads.js';

export interface ModelAnalysisRequest {
  userId: number;
  video: PlatformVideo;
  prompt: string;
  resolution: MediaResolution;
}

export interface ModelAnalysis {
  analysis_text: string;
  /** False when an earlier upload was reused. */
  uploaded: boolean;
}

export async function analyseWithModel(engine: EngineContext, config: VisionProviderConfig, request: ModelAnalysisRequest, signal: AbortSignal): Promise<ModelAnalysis> {
  const platform = await engine.platform();
  const step = { engine, platform, request, call: { config, signal, retryPauseMs: engine.jobs.timing.modelRetryMs }, source: analysisMediaSource(platform) };
  return config.provider === 'gemini' ? analyseWithGemini(step) : analyseWithChatModel(step);
}

interface Step {
  engine: EngineContext;
  platform: PlatformProvider;
  request: ModelAnalysisRequest;
  call: ModelCall;
  source: AnalysisMediaSource;
}

async function analyseWithChatModel(step: Step): Promise<ModelAnalysis> {
  const { engine, request, call } = step;
  const plan = MEDIA_PLANS[request.resolution];
  const previous = (await analysisUploads(engine).fresh(request.userId, request.video.video_id))?.handle;
  let frames = previous?.kind === 'frames' && handleServes(previous, request.resolution) ? await cachedFrames(engine.filesDir, previous) : undefined;
  const uploaded = frames === undefined;
  // A folder replaced here is left to the sweep: another job of the user may still be reading it.
  frames ??= await sampleVideoFrames(step);
  const body = await chatRequest(call.config.model, await videoContext(step), frames, plan, request.prompt);
  return { analysis_text: await askChatModel(call, body), uploaded };
}

/**
 * Fetches the video, samples its frames in scratch, places them whole in a new folder of the files
 * dir (every machine of a fleet sees it), and records them as the upload.
 */
async function sampleVideoFrames(step: Step): Promise<SampledFrame[]> {
  const { engine, request, source, call } = step;
  const plan = MEDIA_PLANS[request.resolution];
  await sweepFrameFolders(engine.filesDir);
  await requireFfmpegForAnalysis();
  return withScratchDir(engine.dataDir, 'analysis', async (workDir) => {
    const media = await source({ video: request.video, height: plan.height, workDir, sound: false, signal: call.signal });
    const made = path.join(workDir, 'frames');
    await fs.promises.mkdir(made, { mode: 0o700 });
    const sampled = await sampleFrames(media.file, media.durationSeconds, plan, made, call.signal, { picturesPerSecond: media.picturesPerSecond });
    const folder = framesFolder(request.userId, request.video.video_id, request.resolution);
    const frames = await keepFrames(engine.filesDir, folder, sampled);
    try {
      await analysisUploads(engine).record(request.userId, request.video.video_id, framesHandle(request.resolution, folder, frames));
    } catch (error) {
      await removeFramesFolder(engine.filesDir, folder);
      throw error;
    }
    return frames;
  });
}

async function analyseWithGemini(step: Step): Promise<ModelAnalysis> {
  const { engine, request, call } = step;
  const plan = MEDIA_PLANS[request.resolution];
  let file = await reusableGeminiFile(step);
  const uploaded = file === undefined;
  if (!file) {
    await requireFfmpegForAnalysis();
    file = await withScratchDir(engine.dataDir, 'analysis', async (workDir) => {
      const media = await step.source({ video: request.video, height: plan.height, workDir, sound: true, signal: call.signal });
      return uploadVideo(call, { path: media.file, mimeType: media.mimeType, displayName: `${request.video.video_id} ${request.video.title}`.slice(0, 120) });
    });
    const handle: UploadHandle = { kind: 'gemini-file', base_url: call.config.baseUrl, name: file.name, uri: file.uri, mime_type: file.mimeType, resolution: request.resolution };
    await analysisUploads(engine).record(request.userId, request.video.video_id, handle);
  }
  await waitUntilActive(call, file);
  return { analysis_text: await askGemini(call, generateRequest(file, await videoContext(step), plan, request.prompt)), uploaded };
}

/** The user's recent upload of the video to this Gemini API, if it serves the resolution and the API still has it. */
async function reusableGeminiFile(step: Step): Promise<GeminiFile | undefined> {
  const { engine, request, call } = step;
  const handle = (await analysisUploads(engine).fresh(request.userId, request.video.video_id))?.handle;
  if (handle?.kind !== 'gemini-file' || handle.base_url !== call.config.baseUrl || !handleServes(handle, request.resolution)) return undefined;
  const file = { name: handle.name, uri: handle.uri, mimeType: handle.mime_type };
  const found = await fileState(call, file);
  return found.state === 'ACTIVE' || found.state === 'PROCESSING' ? file : undefined;
}

/** The video's channel and transcript; a read that fails leaves them out rather than failing the analysis. */
async function videoContext(step: Step): Promise<VideoContext> {
  const { platform, request } = step;
  const video = request.video;
  const [channel, transcript] = await Promise.all([
    Promise.resolve(platform.channelById(video.channel_id)).catch(() => null),
    Promise.resolve(platform.transcript(video.video_id)).catch((): Transcript | null => null),
  ]);
  return { video, channelTitle: channel?.title ?? video.channel_id, transcript };
}
