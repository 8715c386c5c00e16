/** Channels and videos as a live read returns them, and a live index to record them in, for tests of the live index. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe } from 'vitest';
import type { EngineIndex } from '../../src/engine/index/engine-index.js';
import { openLiveIndex } from '../../src/engine/index/live/live-index.js';
import type { PlatformChannel, PlatformVideo } from '../../src/engine/platform/types.js';
import { openDatabase, type Db } from '../../src/engine/store/database.js';
import { openFleetStore } from '../../src/engine/store/open-store.js';
import { SqliteStore } from '../../src/engine/store/sqlite-store.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import type { Store } from '../../src/engine/store/store.js';
import { tempDataDir, type StoreKind } from './engines.js';
import { createTestDatabase } from './postgres.js';

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

/** Every page of a scan of the index, as one list. */
export async function scanAll<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for await (const page of pages) rows.push(...page);
  return rows;
}

export interface OpenedLiveIndex {
  /** The data dir's SQLite file (the terminated part stays on it). */
  db: Db;
  /** Where the index is: the data dir's file, or a Postgres database of the test's own. */
  store: Store;
  index: EngineIndex;
}

/**
 * A fresh live index for each test, on a data dir's database of its own or (`'postgres'`) on a
 * Postgres database of its own (both removed after it): `onOpen` gets them before each test.
 */
export function useLiveIndex(onOpen: (opened: OpenedLiveIndex) => void, kind: StoreKind = 'sqlite'): void {
  let dir: string;
  let db: Db;
  let store: Store;
  beforeEach(async () => {
    dir = tempDataDir();
    db = openDatabase(path.join(dir, 'tubekit.db'));
    store = kind === 'postgres' ? await openPostgresStore() : new SqliteStore(db);
    onOpen({ db, store, index: openLiveIndex(store, db, Date.now) });
  });
  afterEach(async () => {
    if (kind === 'postgres') await store.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

async function openPostgresStore(): Promise<Store> {
  const url = await createTestDatabase();
  const location = parseStoreLocation(url);
  if (location.kind !== 'postgres') throw new Error(`not a Postgres URL: ${url}`);
  return (await openFleetStore(location, { migrations: 'require' })).store;
}

/** A suite of the live index once on each store. */
export function describeEachStore(title: string, body: (kind: StoreKind) => void): void {
  for (const kind of ['sqlite', 'postgres'] as const) describe(`${title} [${kind}]`, () => body(kind));
}
