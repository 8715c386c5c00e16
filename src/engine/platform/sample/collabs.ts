/**
 * Collabs: videos listed under more than one channel — the host (the channel it was uploaded to)
 * and its collaborators.
 *
 * About a quarter of the channels do collabs (`collab_share` > 0 on the row: the share of their
 * uploads that are collabs). Each has a fixed pool of 2–6 partners, mostly of its own language
 * (`world_collab_partners`), so partnerships repeat. A collab video takes 1–3 collaborators
 * from the pool. Collab videos are stored (`world_collabs`, `world_collab_members`, one member
 * row per channel it is listed under, host included) because "which videos list channel X" cannot
 * be derived from X alone: generation records the collabs among the generated videos and the
 * premieres already announced on the reference date; `advance` records each later collab when it
 * is announced (a premiere days before it publishes: an upcoming collab).
 *
 * Scanning: the service's collab crawler covers some channels (`collab_scanned`: most big ones,
 * fewer small ones, none of the channels that appeared after the reference date). The service
 * knows a collab video when at least one of its channels is scanned (`known`), since scanning a
 * channel reads every video listed under it.
 */
import type Database from 'better-sqlite3';
import { DAY_MS, dayNumber } from '../../dates.js';
import type { GenerationContext, WorldEntity } from './entity.js';
import { encodeVideoId, idKeys, type IdKeys } from './ids.js';
import { mix32, rngFor, streamSeed } from './prng.js';
import { MAX_ANNOUNCE_DAYS, uploadsOn, type Upload, type UploadSource, type UploadStreams } from './uploads.js';
import { generatedTimeline, kindBase, type PublishedKind } from './video-model.js';
import type { ContentType } from './words.js';
import { originMs } from './world-clock.js';

const DDL = `
CREATE TABLE world_collab_partners (
  host_idx    INTEGER NOT NULL,
  partner_idx INTEGER NOT NULL,
  PRIMARY KEY (host_idx, partner_idx)
) WITHOUT ROWID;
CREATE TABLE world_collabs (
  video_id     TEXT PRIMARY KEY,
  host_idx     INTEGER NOT NULL,
  kind         TEXT NOT NULL,          -- long | short, once published
  published_ms INTEGER NOT NULL,
  announced_ms INTEGER NOT NULL,       -- earlier than published_ms for a premiere (upcoming until then)
  potential    REAL NOT NULL,          -- views it settles at (see video-model.ts)
  known        INTEGER NOT NULL        -- 1 when a scanned channel is among its channels
);
CREATE TABLE world_collab_members (
  channel_idx INTEGER NOT NULL,
  video_id    TEXT NOT NULL,
  is_host     INTEGER NOT NULL,
  PRIMARY KEY (channel_idx, video_id)
) WITHOUT ROWID;
`;

export interface CollabVideoRow {
  video_id: string;
  host_idx: number;
  kind: PublishedKind;
  published_ms: number;
  announced_ms: number;
  potential: number;
  known: number;
}

export interface CollabStreams {
  /** Decides which generated videos are collabs and with whom. */
  generated: number;
  partners: number;
}

export function collabStreams(seed: string): CollabStreams {
  return { generated: streamSeed(seed, 'collabs'), partners: streamSeed(seed, 'collab-partners') };
}

/** 1–3 collaborators from the host's pool, chosen by uniform draws `[count, pick, pick, pick]`. */
export function pickCollaborators(pool: readonly number[], draws: readonly number[]): number[] {
  if (pool.length === 0) return [];
  const count = Math.min(pool.length, 1 + Math.floor(draws[0]! * 3));
  const picked = new Set<number>();
  for (let i = 0; i < count; i++) picked.add(pool[Math.floor(draws[1 + i]! * pool.length)]!);
  return [...picked];
}

/** Writes collab videos; `scanned` says whether a channel is covered by the crawler. */
export class CollabRecorder {
  private readonly insertVideo;
  private readonly insertMember;
  private readonly partnersOf;

  constructor(
    db: Database.Database,
    private readonly videoKeys: IdKeys,
    private readonly scanned: (idx: number) => boolean,
  ) {
    this.insertVideo = db.prepare('INSERT OR IGNORE INTO world_collabs VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.insertMember = db.prepare('INSERT OR IGNORE INTO world_collab_members VALUES (?, ?, ?)');
    this.partnersOf = db.prepare<[number], number>('SELECT partner_idx FROM world_collab_partners WHERE host_idx = ? ORDER BY partner_idx').pluck();
  }

  pool(hostIdx: number): number[] {
    return this.partnersOf.all(hostIdx);
  }

  /** Records one collab video; false when the host has no partners to collab with. */
  record(hostIdx: number, ordinal: number, kind: PublishedKind, publishedMs: number, announcedMs: number, potential: number, draws: readonly number[], pool = this.pool(hostIdx)): boolean {
    const collaborators = pickCollaborators(pool, draws).filter((idx) => idx !== hostIdx);
    if (collaborators.length === 0) return false;
    const videoId = encodeVideoId(this.videoKeys, hostIdx, ordinal);
    const known = [hostIdx, ...collaborators].some(this.scanned) ? 1 : 0;
    this.insertVideo.run(videoId, hostIdx, kind, publishedMs, announcedMs, potential, known);
    this.insertMember.run(hostIdx, videoId, 1);
    for (const idx of collaborators) this.insertMember.run(idx, videoId, 0);
    return true;
  }

  /** Records the collab among uploads; returns how many were recorded. */
  recordUploads(hostIdx: number, uploads: readonly Upload[], pool: number[]): number {
    let recorded = 0;
    for (const upload of uploads) {
      if (upload.collab && this.record(hostIdx, upload.ordinal, upload.kind, upload.publishedMs, upload.announcedMs, upload.potential, upload.collabDraws, pool)) recorded += 1;
    }
    return recorded;
  }
}

interface HostRow {
  idx: number;
  language_code: string;
  content_type: ContentType;
  origin_videos: number;
  created_at: string;
  collab_share: number;
  collab_scanned: number;
  typical_views: number;
  upload_rate: number;
  noise: number;
}

/** Fixed partner pools: 2–6 channels, four in five of the host's own language. */
function choosePartners(stream: number, host: HostRow, byLanguage: Map<string, number[]>, all: number): number[] {
  const rng = rngFor(stream, host.idx);
  const size = rng.int(2, 6);
  const sameLanguage = byLanguage.get(host.language_code) ?? [];
  const chosen = new Set<number>();
  for (let attempt = 0; attempt < size * 3 && chosen.size < size; attempt++) {
    const local = rng.chance(0.8) && sameLanguage.length > 1;
    const idx = local ? sameLanguage[Math.floor(rng.next() * sameLanguage.length)]! : Math.floor(rng.next() * all);
    if (idx !== host.idx) chosen.add(idx);
  }
  return [...chosen].sort((a, b) => a - b);
}

export function uploadSourceOf(row: Pick<HostRow, 'idx' | 'content_type' | 'upload_rate' | 'typical_views' | 'noise' | 'collab_share' | 'created_at'>, refDay: number): UploadSource {
  const created = Math.floor(Date.parse(row.created_at) / DAY_MS);
  return {
    idx: row.idx,
    content_type: row.content_type,
    upload_rate: row.upload_rate,
    typical_views: row.typical_views,
    noise: row.noise,
    collab_share: row.collab_share,
    firstDay: Math.max(refDay, created) + 1,
  };
}

export function uploadStreams(seed: string): UploadStreams {
  return { counts: streamSeed(seed, 'upload-counts'), days: streamSeed(seed, 'upload-days') };
}

export const collabsEntity: WorldEntity = {
  name: 'collabs',
  createTables(db: Database.Database) {
    db.exec(DDL);
  },
  generate(ctx: GenerationContext) {
    const { db, params, refDay } = ctx;
    const hosts = db
      .prepare(
        `SELECT idx, language_code, content_type, origin_videos, created_at, collab_share, collab_scanned, typical_views, upload_rate, noise
         FROM world_channels ORDER BY idx`,
      )
      .all() as HostRow[];
    const byLanguage = new Map<string, number[]>();
    for (const row of hosts) {
      const list = byLanguage.get(row.language_code) ?? [];
      list.push(row.idx);
      byLanguage.set(row.language_code, list);
    }
    const scanned = (idx: number) => hosts[idx]?.collab_scanned === 1;
    const streams = collabStreams(params.seed);
    const videoStream = streamSeed(params.seed, 'videos');
    const uploads = uploadStreams(params.seed);
    const recorder = new CollabRecorder(db, idKeys(params.seed, 'video'), scanned);
    const insertPartner = db.prepare('INSERT INTO world_collab_partners VALUES (?, ?)');
    const origin = originMs(refDay);
    for (const host of hosts) {
      if (host.collab_share <= 0) continue;
      const pool = choosePartners(streams.partners, host, byLanguage, hosts.length);
      for (const partner of pool) insertPartner.run(host.idx, partner);
      const createdDay = dayNumber(host.created_at);
      const timeline = generatedTimeline(videoStream, { idx: host.idx, content_type: host.content_type, origin_videos: host.origin_videos, createdDay }, refDay);
      for (const video of timeline) {
        const rng = rngFor(streams.generated, mix32(host.idx, video.ordinal));
        if (rng.next() >= host.collab_share) continue;
        const draws = [rng.next(), rng.next(), rng.next(), rng.next()];
        const potential = host.typical_views * kindBase(host.content_type, video.kind) * video.factor;
        recorder.record(host.idx, video.ordinal, video.kind, video.publishedMs, video.publishedMs, potential, draws, pool);
      }
      // Premieres announced by the reference date: the upcoming collabs the world starts with.
      const source = uploadSourceOf(host, refDay);
      for (let day = refDay + 1; day <= refDay + MAX_ANNOUNCE_DAYS; day++) {
        const announced = uploadsOn(uploads, source, refDay, day).filter((upload) => upload.announcedMs <= origin);
        recorder.recordUploads(host.idx, announced, pool);
      }
    }
  },
  createIndexes(db: Database.Database) {
    db.exec(`
      CREATE INDEX world_collabs_published ON world_collabs(published_ms);
      CREATE INDEX world_collab_members_video ON world_collab_members(video_id);
    `);
  },
};
