/**
 * A terminated channel is not "no channel": a request naming one by id is told so, with when it
 * was terminated and where its last record is, instead of "no channel exists" or a usage error.
 * The sample world keeps terminated channels apart from live ones (their ids are of their own
 * family, world/terminated/reader.ts), so a live lookup never finds one.
 */
import { ServiceError } from '../../../core/errors.js';
import type { PlatformProvider } from '../../world/platform.js';

/** The 404 for a terminated channel's id, or undefined when the id is not one. */
export async function terminatedChannelError(platform: PlatformProvider, channelId: string): Promise<ServiceError | undefined> {
  const channel = await platform.terminated.byId(channelId);
  if (!channel) return undefined;
  const ago = channel.terminated_days_ago === 1 ? '1 day ago' : `${channel.terminated_days_ago} days ago`;
  return new ServiceError({
    status: 404,
    code: 'channel_terminated',
    message: `Channel ${channelId} ("${channel.title}") was terminated on ${channel.terminated_date} (${ago}): the platform no longer shows it.`,
    hint: `Its last record: GET /api/terminated-channels/${channelId} (\`tubekit terminated show ${channelId}\`).`,
  });
}

/** Throws the terminated channel's 404 when `channelId` is one; returns otherwise. */
export async function refuseTerminated(platform: PlatformProvider, channelId: string): Promise<void> {
  const error = await terminatedChannelError(platform, channelId);
  if (error) throw error;
}
