/** Channels and videos as a live read returns them, and a live index to record them in, for tests of the live index. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { EngineIndex } from '../../src/engine/index/engine-index.js';
import { openLiveIndex } from '../../src/engine/index/live/live-index.js';
import type { PlatformChannel, PlatformVideo } from '../../src/engine/platform/types.js';
import { openDatabase, type Db } from '../../src/engine/store/database.js';
import { tempDataDir } from './engines.js';

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

/**
 * A fresh live index for each test, on a data dir's database of its own (removed after it):
 * `onOpen` gets the database and the index before each test.
 */
export function useLiveIndex(onOpen: (opened: { db: Db; index: EngineIndex }) => void): void {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = tempDataDir();
    db = openDatabase(path.join(dir, 'tubekit.db'));
    onOpen({ db, index: openLiveIndex(db, Date.now) });
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}
