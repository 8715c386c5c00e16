/**
 * `POST /api/process-channel`: resolve the input to a channel, then queue a job — or return the
 * job an idempotency key already names, queueing nothing. The rate limit counts only submits that
 * queue a job, and it is checked in the insert's transaction, so a refused submit changes nothing.
 */
import { CHANNEL_INPUT_FORMS, parseChannelRef } from '../../../core/channel-input.js';
import { badRequest } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import type { PlatformProvider } from '../../platform/platform.js';
import { refuseTerminated, type TerminatedRecords } from '../terminated/terminated-channel.js';
import { lookupChannel } from '../workspace/resolve.js';
import { channelJobSubmitBody } from './job-view.js';
import { CHANNEL_JOB_KIND, type ChannelJobInput } from './processor.js';

const RATE_WINDOW_MS = 60_000;

export async function submitChannelJob(
  request: RequestContext,
  input: ParsedInput<'channels.process'>,
): Promise<RouteOutput<'channels.process'>> {
  const { engine, user, limits } = request;
  const key = input.idempotency_key;
  if (key !== undefined) {
    const existing = await engine.jobs.queue.findByKey(user.userId, CHANNEL_JOB_KIND, key);
    if (existing) return channelJobSubmitBody(existing, true);
  }
  const channelId = await resolveChannelId(await engine.platform(), (await engine.index()).terminated, input.channel);
  const jobInput: ChannelJobInput = { channel_input: input.channel, type: input.type, channel_id: channelId };
  const perMinute = limits.processChannelPerMinute;
  const { row, existing } = await engine.jobs.enqueue({
    kind: CHANNEL_JOB_KIND,
    userId: user.userId,
    input: jobInput,
    idempotencyKey: key,
    beforeInsert: (tx) => engine.rates.take(user.userId, 'process-channel', perMinute, RATE_WINDOW_MS, `${perMinute} requests/min`, {}, tx),
  });
  return channelJobSubmitBody(row, existing);
}

/** The canonical id of a `UC…` id, @handle, channel URL or video URL; 400 when it names no channel. */
async function resolveChannelId(platform: PlatformProvider, terminated: TerminatedRecords, raw: string): Promise<string> {
  const ref = parseChannelRef(raw, { allowVideo: true });
  if (!ref) {
    throw badRequest(`Invalid request: channel: "${raw}" is not a channel or video. Use ${CHANNEL_INPUT_FORMS}, or a video URL of the channel.`);
  }
  const channel = await lookupChannel(platform, ref);
  if (!channel) {
    if (ref.kind === 'id') await refuseTerminated(terminated, ref.channelId);
    const what = ref.kind === 'id' ? 'channel id' : ref.kind === 'handle' ? 'handle' : ref.kind === 'legacy' ? 'URL' : 'video';
    throw badRequest(
      `Invalid request: channel: "${raw}" could not be resolved: no channel has that ${what}.`,
      'Check the spelling, or pass the UC… id from the channel page.',
    );
  }
  return channel.channel_id;
}
