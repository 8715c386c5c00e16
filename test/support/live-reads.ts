/** Channels and videos as a live read returns them, for tests of the live index. */
import type { PlatformChannel, PlatformVideo } from '../../src/engine/platform/types.js';

export function liveChannel(overrides: Partial<PlatformChannel> = {}): PlatformChannel {
  return {
    channel_id: 'UCsnapshotChannel0000001',
    handle: '@snapshots',
    title: 'Snapshot Channel',
    description: '',
    language: null,
    language_code: null,
    country: 'US',
    category: null,
    content_type: 'longform',
    subscribers: 100,
    total_views: 1000,
    video_count: 10,
    created_at: '2020-01-01',
    thumbnail_url: 'https://yt3.example/s.jpg',
    counts_exact: { subscribers: true, total_views: true, video_count: true },
    ...overrides,
  };
}

export function liveVideo(videoId: string, channelId: string, overrides: Partial<PlatformVideo> = {}): PlatformVideo {
  return {
    video_id: videoId,
    channel_id: channelId,
    kind: 'long',
    title: `Title of ${videoId}`,
    views: 1000,
    likes: 0,
    comments: 0,
    duration_seconds: 600,
    published_at: '2026-11-19T12:00:00Z',
    thumbnail_url: '',
    ...overrides,
  };
}
