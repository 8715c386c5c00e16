import { badRequest, notFound } from '../../../core/errors.js';
import { CHANNEL_INPUT_FORMS, legacyChannelUrl, parseChannelRef, type ChannelRef } from '../../../core/channel-input.js';
import type { ResolvedChannel } from '../../../core/schemas/workspace.js';
import type { PlatformChannel, PlatformProvider } from '../../platform/platform.js';
import { refuseTerminated, type TerminatedRecords } from '../terminated/terminated-channel.js';

/** The platform's channel for a parsed reference, or undefined when it names nothing. */
export async function lookupChannel(platform: PlatformProvider, ref: ChannelRef): Promise<PlatformChannel | null> {
  switch (ref.kind) {
    case 'id':
      return platform.channelById(ref.channelId);
    case 'handle':
      return platform.resolveHandle(`@${ref.handle}`);
    case 'legacy':
      return platform.resolveHandle(legacyChannelUrl(ref));
    case 'video': {
      const video = await platform.videoById(ref.videoId);
      return video ? platform.channelById(video.channel_id) : null;
    }
  }
}

/**
 * `POST /api/channels/resolve`: a raw id comes back unchanged (even one no channel has, marked
 * `known: false` with no made-up title) unless it is a terminated channel's (404 saying so); a
 * handle or URL that names no channel is a 404, a malformed input a 400.
 */
export async function resolveChannel(platform: PlatformProvider, terminated: TerminatedRecords, input: string): Promise<ResolvedChannel> {
  const ref = parseChannelRef(input);
  if (!ref) throw badRequest(`Invalid request: input: "${input}" is not a channel. Use ${CHANNEL_INPUT_FORMS}.`);
  const channel = await lookupChannel(platform, ref);
  if (!channel) {
    if (ref.kind === 'id') {
      await refuseTerminated(terminated, ref.channelId);
      return resolvedAnswer(input, { channel_id: ref.channelId, handle: null, title: null, thumbnail_url: null }, false);
    }
    throw notFound(`No channel found for "${input}". Check the handle or URL.`);
  }
  return resolvedAnswer(input, channel, true);
}

type ChannelFace = Pick<ResolvedChannel, 'channel_id' | 'handle' | 'title' | 'thumbnail_url'>;

function resolvedAnswer(input: string, channel: ChannelFace, known: boolean): ResolvedChannel {
  return {
    success: true,
    input,
    channel_id: channel.channel_id,
    handle: channel.handle,
    title: channel.title,
    thumbnail_url: channel.thumbnail_url,
    channel_name: channel.title,
    channel_thumbnail: channel.thumbnail_url,
    known,
  };
}
