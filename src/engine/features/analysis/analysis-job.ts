/**
 * The `analysis` job. The engine resolves its vision model when the job runs (its own
 * configuration: providers/provider-config.ts), then:
 *  - a model is configured: the video goes to it (model-analysis.ts) on either platform;
 *  - none, on the sample platform: a small deterministic analyst stands in (analyst/), reading the
 *    video's own title, transcript and statistics, with a simulated upload that a repeat within
 *    2 hours skips;
 *  - none, on the live platform: the job fails saying how to configure one.
 * The job-status body then carries `analysis_text`.
 */
import { hasFault } from '../../faults.js';
import { registerJobProcessor, type JobProcessContext } from '../../jobs/registry.js';
import type { Job } from '../../jobs/job-row.js';
import type { PlatformVideo } from '../../platform/platform.js';
import { simulateWork } from '../../simulated-work.js';
import { analyzeVideo } from './analyst/analyze.js';
import { analyseWithModel } from './model-analysis.js';
import { HOW_TO_CONFIGURE, resolveAnalysisProvider } from './providers/provider-config.js';
import { analysisUploads } from './uploads.js';

export const ANALYSIS_KIND = 'analysis';

/** What the submit stores. */
export interface AnalysisInput {
  video_url: string;
  video_id: string;
  title: string;
  prompt: string;
  media_resolution: 'low' | 'default';
  /** Whether the submit found a reusable upload (the answer's `cached`). */
  cached: boolean;
}

export interface AnalysisOutput {
  analysis_text: string;
  /** Whether this run uploaded the video (false: it reused an upload). */
  uploaded: boolean;
}

const injectedFailure = () =>
  new Error('Video analysis failed: the vision model answered with an error (injected fault "video-analysis"). Submit the analysis again once the fault is cleared.');

registerJobProcessor<AnalysisInput, AnalysisOutput>({
  kind: ANALYSIS_KIND,
  family: 'task',
  async process(job, context) {
    const { engine, signal } = context;
    const platform = await engine.platform();
    const model = resolveAnalysisProvider(engine.analysisSettings);
    if (model.state === 'invalid') throw new Error(`Video analysis failed: the vision model is not configured correctly where the engine runs. ${model.problem} ${model.fix}`);
    if (model.state === 'none' && !platform.simulation) {
      throw new Error(`Video analysis on the live platform needs a vision model, and none is configured where the engine runs. ${HOW_TO_CONFIGURE}`);
    }
    const video = await platform.videoById(job.input.video_id);
    if (!video) throw new Error(`Video ${job.input.video_id} is no longer available on the platform; nothing to analyse.`);
    if (model.state === 'none') return standIn(job, context, video);
    if (hasFault(engine.settings, 'video-analysis')) throw injectedFailure();
    return analyseWithModel(engine, model.config, { userId: job.userId, video, prompt: job.input.prompt, resolution: job.input.media_resolution }, signal);
  },
  async describe(job, request) {
    const fields: Record<string, unknown> = {
      title: job.input.title,
      video_url: job.input.video_url,
      video_id: job.input.video_id,
      media_resolution: job.input.media_resolution,
      // Once done, whether the run really reused an upload (the configuration may have changed since the submit).
      cached: job.output ? !job.output.uploaded : job.input.cached,
    };
    if (job.state === 'processing' && job.claimedAt !== null) {
      const uploadedAt = await analysisUploads(request.engine).uploadedAt(job.userId, job.input.video_id);
      const uploading = !job.input.cached && (uploadedAt === undefined || uploadedAt < job.claimedAt);
      fields.status_detail = uploading ? 'uploading' : 'analyzing';
      fields.status_detail_message = uploading ? 'Uploading the video to the vision model.' : 'The vision model is watching the video.';
    }
    if (job.output) fields.analysis_text = job.output.analysis_text;
    return fields;
  },
});

/** The sample world's stand-in analyst, with simulated upload and analysis times. */
async function standIn(job: Job<AnalysisInput, AnalysisOutput>, { engine, signal }: JobProcessContext, video: PlatformVideo): Promise<AnalysisOutput> {
  const { settings } = engine;
  const platform = await engine.platform();
  const uploads = analysisUploads(engine);
  // A reused upload may have expired while the job waited for a worker: then upload again.
  const upload = !(job.input.cached && (await uploads.reusable(job.userId, video.video_id)));
  if (upload) {
    await simulateWork(settings, 'analysis-upload', job.publicId!, signal);
    await uploads.record(job.userId, video.video_id);
  }
  await simulateWork(settings, 'analysis', job.publicId!, signal);
  if (hasFault(settings, 'video-analysis')) throw injectedFailure();
  const channel = await platform.channelById(video.channel_id);
  if (!channel) throw new Error(`The channel of video ${video.video_id} is no longer available; nothing to analyse.`);
  const transcript = await platform.transcript(video.video_id);
  const analysis_text = analyzeVideo({ prompt: job.input.prompt, resolution: job.input.media_resolution, video, channel, transcript });
  return { analysis_text, uploaded: upload };
}
