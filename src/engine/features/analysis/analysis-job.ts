/**
 * The `analysis` job: the video is uploaded to the vision model (skipped when the user's upload of
 * it from the last 2 hours can be reused), the model watches it, and the job-status body then
 * carries `analysis_text`. In the sample world the "model" is a small deterministic analyst that
 * reads the video's own title, transcript and statistics (analyst/).
 */
import { hasFault } from '../../faults.js';
import { registerJobProcessor } from '../../jobs/registry.js';
import { simulateWork } from '../../simulated-work.js';
import { analyzeVideo } from './analyst/analyze.js';
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

registerJobProcessor<AnalysisInput, AnalysisOutput>({
  kind: ANALYSIS_KIND,
  family: 'task',
  async process(job, { engine, signal }) {
    const { settings } = engine;
    const platform = await engine.platform();
    const uploads = analysisUploads(engine);
    const video = await platform.videoById(job.input.video_id);
    if (!video) throw new Error(`Video ${job.input.video_id} is no longer available on the platform; nothing to analyse.`);
    // A reused upload may have expired while the job waited for a worker: then upload again.
    const upload = !(job.input.cached && uploads.reusable(job.userId, video.video_id));
    if (upload) {
      await simulateWork(settings, 'analysis-upload', job.publicId!, signal);
      uploads.record(job.userId, video.video_id);
    }
    await simulateWork(settings, 'analysis', job.publicId!, signal);
    if (hasFault(settings, 'video-analysis')) {
      throw new Error('Video analysis failed: the vision model answered with an error (injected fault "video-analysis"). Submit the analysis again once the fault is cleared.');
    }
    const channel = await platform.channelById(video.channel_id);
    if (!channel) throw new Error(`The channel of video ${video.video_id} is no longer available; nothing to analyse.`);
    const transcript = await platform.transcript(video.video_id);
    const analysis_text = analyzeVideo({ prompt: job.input.prompt, resolution: job.input.media_resolution, video, channel, transcript });
    return { analysis_text, uploaded: upload };
  },
  describe(job, request) {
    const fields: Record<string, unknown> = {
      title: job.input.title,
      video_url: job.input.video_url,
      video_id: job.input.video_id,
      media_resolution: job.input.media_resolution,
      cached: job.input.cached,
    };
    if (job.state === 'processing' && job.claimedAt !== null) {
      const uploadedAt = analysisUploads(request.engine).uploadedAt(job.userId, job.input.video_id);
      const uploading = !job.input.cached && (uploadedAt === undefined || uploadedAt < job.claimedAt);
      fields.status_detail = uploading ? 'uploading' : 'analyzing';
      fields.status_detail_message = uploading ? 'Uploading the video to the vision model.' : 'The vision model is watching the video.';
    }
    if (job.output) fields.analysis_text = job.output.analysis_text;
    return fields;
  },
});
