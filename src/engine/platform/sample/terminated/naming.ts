/** The sample world's names for terminated rows: ids derived from its seed, thumbnails on its CDN hosts. */
import type { TerminatedNaming } from '../../../index/terminated/naming.js';
import { CHANNEL_THUMBNAIL_HOST } from '../channels.js';
import { decodeChannelId, encodeChannelId, encodeVideoId, idKeys } from '../ids.js';
import { VIDEO_THUMBNAIL_HOST } from '../videos.js';

export function terminatedNaming(seed: string): TerminatedNaming {
  const channelKeys = idKeys(seed, 'terminated-channel');
  const videoKeys = idKeys(seed, 'terminated-video');
  return {
    channelId: (idx) => encodeChannelId(channelKeys, idx),
    channelIdx: (channelId) => {
      const idx = decodeChannelId(channelKeys, channelId);
      return idx < 0 ? null : idx;
    },
    videoId: (idx, ordinal) => encodeVideoId(videoKeys, idx, ordinal),
    channelThumbnail: (channelId) => `https://${CHANNEL_THUMBNAIL_HOST}/ch/${channelId}/s800.jpg`,
    videoThumbnail: (videoId) => `https://${VIDEO_THUMBNAIL_HOST}/vi/${videoId}/hqdefault.jpg`,
  };
}
