/**
 * Reads the world's collab listings (collabs.ts) as of a world time: a collab video is visible
 * once announced, upcoming until published. Engine features reach it as `world.collabs`.
 */
import type Database from 'better-sqlite3';
import type { CollabAggregate, CollabListing as IndexListing, SeedCollabs } from '../../index/collab-graph.js';
import type { CollabVideoRow } from './collabs.js';
import { viewsAt } from './video-model.js';

export type { CollabAggregate };

/** A listing as the world stores it: with the views potential its view count derives from. */
export interface CollabListing extends IndexListing {
  potential: number;
}

/** Known collab videos with their members, newest first, as stored at one state of the world's clock. */
interface KnownIndex {
  clock: number;
  listings: CollabListing[];
}

/** The world's collab tables, read as the index's collab graph (the world seeds it). */
export class CollabReader implements SeedCollabs {
  private readonly statements;
  private known?: KnownIndex;

  /** `clock`: the stored state of the world's clock, which moves whenever collabs are recorded (advance). */
  constructor(db: Database.Database, private readonly clock: () => number) {
    this.statements = {
      involving: db.prepare<[number, number], CollabVideoRow>(
        `SELECT c.* FROM world_collab_members m JOIN world_collabs c ON c.video_id = m.video_id
         WHERE m.channel_idx = ? AND c.announced_ms <= ? ORDER BY c.published_ms DESC, c.video_id`,
      ),
      members: db.prepare<[string], { channel_idx: number; is_host: number }>(
        'SELECT channel_idx, is_host FROM world_collab_members WHERE video_id = ? ORDER BY is_host DESC, channel_idx',
      ),
      listedAsCollaborator: db.prepare<[number, number], CollabVideoRow>(
        `SELECT c.* FROM world_collab_members m JOIN world_collabs c ON c.video_id = m.video_id
         WHERE m.channel_idx = ? AND m.is_host = 0 AND c.announced_ms <= ?`,
      ),
      allKnown: db.prepare<[], CollabVideoRow & { member: number }>(
        `SELECT c.*, m.channel_idx AS member FROM world_collabs c JOIN world_collab_members m ON m.video_id = c.video_id
         WHERE c.known = 1 ORDER BY c.published_ms DESC, c.video_id, m.is_host DESC, m.channel_idx`,
      ),
      checked: db.prepare<[number, number], number>(
        `SELECT 1 FROM world_collab_members m JOIN world_collabs c ON c.video_id = m.video_id
         WHERE m.channel_idx = ? AND c.known = 1 AND c.announced_ms <= ? LIMIT 1`,
      ).pluck(),
      checkedChannels: db.prepare<[number], number>(
        `SELECT idx FROM world_channels WHERE collab_scanned = 1
         UNION SELECT m.channel_idx FROM world_collab_members m JOIN world_collabs c ON c.video_id = m.video_id
         WHERE c.known = 1 AND c.announced_ms <= ?`,
      ).pluck(),
      knownVisible: db.prepare<[number], [string, number, number]>(
        `SELECT m.video_id, m.channel_idx, c.published_ms FROM world_collab_members m JOIN world_collabs c ON c.video_id = m.video_id
         WHERE c.known = 1 AND c.announced_ms <= ?`,
      ).raw(),
    };
  }

  private withMembers(row: CollabVideoRow): CollabListing {
    return { ...row, known: row.known === 1, members: this.statements.members.all(row.video_id).map((member) => member.channel_idx) };
  }

  /** Every visible collab video listing the channel (host or collaborator), newest first. */
  involving(channelIdx: number, nowMs: number): CollabListing[] {
    return this.statements.involving.all(channelIdx, nowMs).map((row) => this.withMembers(row));
  }

  /** Visible collab videos hosted by other channels that list this one as a collaborator. */
  listedAsCollaborator(channelIdx: number, nowMs: number): CollabVideoRow[] {
    return this.statements.listedAsCollaborator.all(channelIdx, nowMs);
  }

  /** Channel indexes a video is listed under, host first ([] for a solo video). */
  members(videoId: string): number[] {
    return this.statements.members.all(videoId).map((member) => member.channel_idx);
  }

  /**
   * Known collab videos published in (fromMs, toMs], newest first: a slice of the known index,
   * found by binary search (the feed asks this on every call; a query per video cost milliseconds).
   */
  knownPublished(fromMs: number, toMs: number): CollabListing[] {
    const { listings } = this.knownIndex();
    return listings.slice(firstPublishedAtOrBefore(listings, toMs), firstPublishedAtOrBefore(listings, fromMs));
  }

  /** Every known collab video with its members, read in one query and kept until the world's clock moves. */
  private knownIndex(): KnownIndex {
    const clock = this.clock();
    if (this.known?.clock === clock) return this.known;
    const listings: CollabListing[] = [];
    for (const { member, ...row } of this.statements.allKnown.all()) {
      const last = listings.at(-1);
      if (last?.video_id === row.video_id) last.members.push(member);
      else listings.push({ ...row, known: true, members: [member] });
    }
    this.known = { clock, listings };
    return this.known;
  }

  /** Scanned, or listed on a known collab video: the service has collab data about it. */
  isChecked(channelIdx: number, scanned: boolean, nowMs: number): boolean {
    return scanned || this.statements.checked.get(channelIdx, nowMs) !== undefined;
  }

  checkedChannels(nowMs: number): number[] {
    return this.statements.checkedChannels.all(nowMs);
  }

  /**
   * As of `asOfMs`: per channel, its partners, collab video count and latest collab over the known
   * videos published by then; and every channel listed on a known video then (upcoming included),
   * which with the scanned ones are the checked channels. One read for the growth snapshot.
   */
  snapshot(asOfMs: number): { aggregates: Map<number, CollabAggregate>; listed: Set<number> } {
    const byVideo = new Map<string, { published: number; members: number[] }>();
    const listed = new Set<number>();
    for (const [videoId, idx, published] of this.statements.knownVisible.all(asOfMs)) {
      listed.add(idx);
      if (published > asOfMs) continue;
      const video = byVideo.get(videoId);
      if (video) video.members.push(idx);
      else byVideo.set(videoId, { published, members: [idx] });
    }
    const aggregates = new Map<number, CollabAggregate>();
    const partners = new Map<number, Set<number>>();
    for (const { published, members } of byVideo.values()) {
      for (const idx of members) {
        const entry = aggregates.get(idx) ?? { channel_idx: idx, partners: 0, collab_videos: 0, latest_published_ms: 0 };
        entry.collab_videos += 1;
        entry.latest_published_ms = Math.max(entry.latest_published_ms, published);
        aggregates.set(idx, entry);
        let set = partners.get(idx);
        if (!set) partners.set(idx, (set = new Set<number>()));
        for (const other of members) if (other !== idx) set.add(other);
      }
    }
    for (const [idx, set] of partners) aggregates.get(idx)!.partners = set.size;
    return { aggregates, listed };
  }

  /** A listing's views at `nowMs` (0 while upcoming); listings come from this reader, so they carry their potential. */
  views(listing: IndexListing, nowMs: number): number {
    return viewsAt((listing as CollabListing).potential, listing.kind, nowMs - listing.published_ms);
  }
}

/** The first index of `newestFirst` published at or before `ms` (its length when none is). */
function firstPublishedAtOrBefore(newestFirst: readonly CollabListing[], ms: number): number {
  let low = 0;
  let high = newestFirst.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (newestFirst[middle]!.published_ms > ms) low = middle + 1;
    else high = middle;
  }
  return low;
}
