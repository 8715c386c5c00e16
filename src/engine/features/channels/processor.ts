/**
 * The channel processor: reads the channel and its recent videos (longform) or shorts from the
 * platform, judges it against the inclusion rules, stores what it learned in the index, and
 * returns the job's `result`.
 */
import type { ChannelJobType } from '../../../core/schemas/jobs.js';
import { hasFault } from '../../faults.js';
import { registerJobProcessor, type JobProcessor } from '../../jobs/registry.js';
import type { StatisticsHistory } from '../../index/statistics.js';
import type { PlatformChannel, PlatformProvider, PlatformVideo } from '../../platform/platform.js';
import { watchFields } from '../watch-fields.js';
import { indexChannel } from './channel-index.js';
import { withPlatformRetries } from './platform-retries.js';
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
    const [platform, index] = await Promise.all([engine.platform(), engine.index()]);
    // The sample world pretends the hosted service's minutes of work; the live platform's reads take their own time.
    if (platform.simulation) await simulateWork(engine.settings, 'channel-job', job.id, signal);
    if (hasFault(engine.settings, 'channel-job-fail')) {
      throw new Error(
        'The platform did not answer while this channel was read (injected fault "channel-job-fail"; ' +
          'clear it with `tubekit engine faults clear channel-job-fail`).',
      );
    }
    // Where reads fill the index (live), the job's reads are stored together once they all parsed.
    const read = async () => readChannel(platform, job.input, await index.channels.byId(job.input.channel_id));
    const { channel, uploads } = await withPlatformRetries(() => (index.reads ? index.reads.together(read) : read()), engine.jobs.timing, signal);
    const eligibility = assessEligibility(channel, uploads, job.input.type);
    const result = await buildResult(index.statistics, job.input.type, channel, uploads, eligibility);
    signal.throwIfAborted();
    await indexChannel(engine, job.id, channel, uploads, eligibility);
    return { eligible: eligibility.eligible, result };
  },
};

registerJobProcessor(channelJobProcessor);

/**
 * The channel and its recent uploads of the job's type: one page of the tab (the platform follows
 * no continuation past what the job needs). A platform that does not say a channel's language
 * (live) has it from what the index learned, else from the spoken language of its newest upload's
 * captions: one more read.
 */
async function readChannel(
  platform: PlatformProvider,
  input: ChannelJobInput,
  known: Pick<PlatformChannel, 'language' | 'language_code'> | null,
): Promise<{ channel: PlatformChannel; uploads: PlatformVideo[] }> {
  const read = await platform.channelById(input.channel_id);
  if (!read) throw new Error(`Channel ${input.channel_id} is no longer available on the platform.`);
  // What an earlier read taught the index stands until the platform says otherwise.
  const channel = read.language === null && known?.language ? { ...read, language: known.language, language_code: known.language_code } : read;
  const kind = input.type === 'shorts' ? 'short' : 'long';
  const uploads = await platform.channelVideos(channel.channel_id, { kind, limit: RECENT_UPLOADS });
  if (channel.language !== null || uploads.length === 0) return { channel, uploads };
  const code = (await platform.videoById(uploads[0]!.video_id))?.spoken_language;
  const language = code ? platform.languages().find((candidate) => candidate.code === code) : undefined;
  return { channel: language ? { ...channel, language: language.name, language_code: language.code } : channel, uploads };
}

/** The `result` payload: profile and statistics, then the recent uploads of the requested type. */
async function buildResult(
  statistics: StatisticsHistory,
  type: ChannelJobType,
  channel: PlatformChannel,
  uploads: PlatformVideo[],
  eligibility: Eligibility,
): Promise<Record<string, unknown>> {
  const [week, month] = await Promise.all([statistics.growth(channel.channel_id, 7), statistics.growth(channel.channel_id, 30)]);
  const coverage = statistics.coverage ? await statistics.coverage(channel.channel_id) : undefined;
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
      // Live: since when the gains could be known (null until the snapshots cover 7 and 30 days).
      ...(coverage !== undefined ? watchFields(coverage) : {}),
    },
    [type === 'shorts' ? 'shorts' : 'videos']: entries,
    ineligible_reasons: eligibility.reasons,
  };
}
