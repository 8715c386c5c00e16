import { badRequest, ServiceError } from '../../../core/errors.js';
import type { EngineContext } from '../../context.js';
import type { PrecheckedVerdicts } from '../../index/prechecked.js';
import type { PlatformChannel, PlatformProvider } from '../../platform/platform.js';
import { refuseTerminated, type TerminatedRecords } from '../terminated/terminated-channel.js';

/**
 * Where the checks learn about a channel and what the service already holds for them. On the
 * sample platform: the platform's channel, the index's terminated records and pre-checked verdicts.
 * On the live platform the channel is read off the site (`channelPresence`: active, terminated or
 * missing; the read is stored in the live index like any other), and the checks start with no
 * pre-checked verdicts — the live index holds none, and syncing its empty set would clear the
 * verdicts live checks stored.
 */
export async function checkedChannel(engine: EngineContext, channelId: string): Promise<PlatformChannel> {
  const platform = await engine.platform();
  if (platform.source !== 'live' || !platform.channelPresence) return requireKnownChannel(platform, (await engine.index()).terminated, channelId);
  const presence = await platform.channelPresence(channelId);
  if (presence.state === 'active') return presence.channel;
  if (presence.state === 'terminated') {
    throw new ServiceError({
      status: 404,
      code: 'channel_terminated',
      message: `Channel ${channelId} is no longer on the platform: ${presence.reason}`,
      hint: 'A terminated channel has no pages to check.',
    });
  }
  throw noSuchChannel(channelId);
}

/** The verdicts the checks' store starts with; none on the live platform. */
export async function precheckedVerdicts(engine: EngineContext): Promise<PrecheckedVerdicts | null> {
  const platform = await engine.platform();
  return platform.source === 'live' ? null : (await engine.index()).prechecked;
}

/**
 * The platform's channel for a well-formed id, or 400: the spec answers unresolvable channel input
 * with 400 and lists channels among no 404 resources (as saving an unknown id does). A terminated
 * channel's id is a 404 that says so.
 */
export async function requireKnownChannel(platform: PlatformProvider, terminated: TerminatedRecords, channelId: string): Promise<PlatformChannel> {
  const channel = await platform.channelById(channelId);
  if (!channel) {
    await refuseTerminated(terminated, channelId);
    throw noSuchChannel(channelId);
  }
  return channel;
}

function noSuchChannel(channelId: string): ServiceError {
  return badRequest(
    `Invalid request: channel_id: no channel exists with id ${channelId}.`,
    'Check the id, or resolve a handle or URL to its id first (POST /api/channels/resolve, `tubekit resolve`).',
  );
}

/** Average views per video: the channel's total views over its video count; null when either is unknown. */
export function averageViews(channel: Pick<PlatformChannel, 'total_views' | 'video_count'>): number | null {
  if (channel.total_views === null || channel.video_count === null) return null;
  return Math.round(channel.total_views / Math.max(1, channel.video_count));
}
