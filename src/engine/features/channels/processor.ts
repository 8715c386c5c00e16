/**
 * The channel processor: reads the channel and its recent videos (longform) or shorts from the
 * platform, judges it against the inclusion rules, stores what it learned in the index, and
 * returns the job's `result`.
 */
import type { ChannelJobType } from '../../../core/schemas/jobs.js';
import { hasFault } from '../../faults.js';
import { registerJobProcessor, type JobProcessor } from '../../jobs/registry.js';
import type { StatisticsHistory } from '../../index/statistics.js';
import type { PlatformChannel, PlatformVideo } from '../../platform/platform.js';
import { indexChannel } from './channel-index.js';
import { assessEligibility, type Eligibility } from './eligibility.js';
import { simulateWork } from '../../simulated-work.js';

export const CHANNEL_JOB_KIND = 'channel';
/** Recent uploads read per job (the platform lists at most 20). */
export const RECENT_UPLOADS = 20;

export interface ChannelJobInput {
  /** The raw `channel` the caller sent, echoed as `channel_input`. */
  channel_input: string;
  type: ChannelJobType;
  channel_id: string;
}

export interface ChannelJobOutput {
  eligible: boolean;
  result: Record<string, unknown>;
}

export const channelJobProcessor: JobProcessor<ChannelJobInput, ChannelJobOutput> = {
  kind: CHANNEL_JOB_KIND,
  family: 'channel',
  async process(job, { engine, signal }) {
    await simulateWork(engine.settings, 'channel-job', job.id, signal);
    if (hasFault(engine.settings, 'channel-job-fail')) {
      throw new Error(
        'The platform did not answer while this channel was read (injected fault "channel-job-fail"; ' +
          'clear it with `tubekit engine faults clear channel-job-fail`).',
      );
    }
    const platform = await engine.platform();
    const channel = await platform.channelById(job.input.channel_id);
    if (!channel) throw new Error(`Channel ${job.input.channel_id} is no longer available on the platform.`);
    const kind = job.input.type === 'shorts' ? 'short' : 'long';
    const uploads = await platform.channelVideos(channel.channel_id, { kind, limit: RECENT_UPLOADS });
    const eligibility = assessEligibility(channel, uploads, job.input.type);
    const result = buildResult((await engine.index()).statistics, job.input.type, channel, uploads, eligibility);
    signal.throwIfAborted();
    indexChannel(engine, job.id, channel, uploads, eligibility);
    return { eligible: eligibility.eligible, result };
  },
};

registerJobProcessor(channelJobProcessor);

/** The `result` payload: profile and statistics, then the recent uploads of the requested type. */
function buildResult(
  statistics: StatisticsHistory,
  type: ChannelJobType,
  channel: PlatformChannel,
  uploads: PlatformVideo[],
  eligibility: Eligibility,
): Record<string, unknown> {
  const [week, month] = [statistics.growth(channel.channel_id, 7), statistics.growth(channel.channel_id, 30)];
  const entries = uploads.map((video) => ({
    video_id: video.video_id,
    title: video.title,
    views: video.views,
    duration_seconds: video.duration_seconds,
    published_at: video.published_at,
  }));
  return {
    channel: {
      channel_id: channel.channel_id,
      handle: channel.handle,
      title: channel.title,
      description: channel.description,
      language: channel.language,
      country: channel.country,
      category: channel.category,
      content_type: channel.content_type,
      created_at: channel.created_at,
      thumbnail_url: channel.thumbnail_url,
    },
    statistics: {
      subscribers: channel.subscribers,
      total_views: channel.total_views,
      video_count: channel.video_count,
      subscribers_gained_7d: week?.subscribers ?? null,
      views_gained_7d: week?.views ?? null,
      subscribers_gained_30d: month?.subscribers ?? null,
      views_gained_30d: month?.views ?? null,
    },
    [type === 'shorts' ? 'shorts' : 'videos']: entries,
    ineligible_reasons: eligibility.reasons,
  };
}
