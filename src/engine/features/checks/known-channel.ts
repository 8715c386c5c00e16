import { badRequest } from '../../../core/errors.js';
import type { PlatformChannel, PlatformProvider } from '../../platform/platform.js';
import { refuseTerminated, type TerminatedRecords } from '../terminated/terminated-channel.js';

/**
 * The platform's channel for a well-formed id, or 400: the spec answers unresolvable channel input
 * with 400 and lists channels among no 404 resources (as saving an unknown id does). A terminated
 * channel's id is a 404 that says so.
 */
export async function requireKnownChannel(platform: PlatformProvider, terminated: TerminatedRecords, channelId: string): Promise<PlatformChannel> {
  const channel = await platform.channelById(channelId);
  if (!channel) {
    await refuseTerminated(terminated, channelId);
    throw badRequest(
      `Invalid request: channel_id: no channel exists with id ${channelId}.`,
      'Check the id, or resolve a handle or URL to its id first (POST /api/channels/resolve, `tubekit resolve`).',
    );
  }
  return channel;
}

/** Average views per video: the channel's total views over its video count. */
export function averageViews(channel: Pick<PlatformChannel, 'total_views' | 'video_count'>): number {
  return Math.round(channel.total_views / Math.max(1, channel.video_count));
}
