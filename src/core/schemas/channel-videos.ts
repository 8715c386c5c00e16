/** A channel's videos as the index lists them, and the check verdicts already stored for it: reads only, no quota spent. */
import * as z from 'zod';
import { channelId, integer, oneOf, success } from './params.js';

export const CHANNEL_VIDEOS_MAX = 50;
export const CHANNEL_VIDEO_SORTS = ['newest', 'views'] as const;
/** The newest videos `sort=views` ranks: a channel's most viewed of these, not of every video it ever made. */
export const CHANNEL_VIDEOS_RANKED = 500;

export const channelVideosInput = z.object({
  channel_id: channelId,
  limit: integer({ min: 1, max: CHANNEL_VIDEOS_MAX }).default(20),
  sort: oneOf(CHANNEL_VIDEO_SORTS).default('newest'),
});

export const channelVideo = z.object({
  video_id: z.string(),
  /** Null when the index never read the title. */
  title: z.string().nullable(),
  kind: oneOf(['long', 'short'] as const),
  published_at: z.string(),
  /** Null when the site did not show the video's views. */
  views: z.number().int().nullable(),
});

export const channelVideosOutput = z.object({
  success,
  channel_id: z.string(),
  sort: oneOf(CHANNEL_VIDEO_SORTS),
  /** How many of the index's newest videos were ranked (sort=views), or listed. */
  ranked: z.number().int(),
  /** The channel's video count as the index last read it (the list may know fewer); null when the site hid it. */
  video_count: z.number().int().nullable(),
  videos: z.array(channelVideo),
});
export type ChannelVideos = z.infer<typeof channelVideosOutput>;

export const storedChecksInput = z.object({ channel_id: channelId });

/** Each check's last stored verdict, or null when it was never run on this service. */
export const storedChecksOutput = z.object({
  success,
  channel_id: z.string(),
  ads: z
    .object({
      /** Null: the last check could not tell. */
      monetized: z.boolean().nullable(),
      reason: z.string(),
      checked_at: z.string(),
      last_seen_monetized_at: z.string().nullable(),
      last_seen_demonetized_at: z.string().nullable(),
    })
    .nullable(),
  external: z.object({ classified_at: z.string(), classifier_version: z.string(), result: z.record(z.string(), z.unknown()) }).nullable(),
  network: z
    .object({
      status: oneOf(['managed', 'not_managed'] as const),
      /** `precheck`: from the index the service starts with; `live`: a check run here. */
      source: oneOf(['precheck', 'live'] as const),
      checked_at: z.string(),
      owner: z.object({ oid: z.string(), name: z.string().nullable() }).nullable(),
    })
    .nullable(),
});
export type StoredChecks = z.infer<typeof storedChecksOutput>;
