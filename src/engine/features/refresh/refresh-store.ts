/**
 * The refresh sweep's tables and reads (one place for its SQL): which channels it watches, which
 * of them are due, and the claims that keep two processes from reading one channel at once — a
 * lease per channel in `live_refresh`, taken in an IMMEDIATE transaction that re-checks the channel
 * is still due, and given back (or let run out, when its process died) after the read.
 */
import type { Db } from '../../store/database.js';
import { preparedFor } from '../../store/prepared.js';
import type { LiveChannelRow } from '../../index/live/channel-rows.js';

export interface DueChannel {
  idx: number;
  channel_id: string;
  /** The sweep's last read of it, or try (null: never swept). */
  last_swept_ms: number | null;
  state: string;
}

const statements = preparedFor((db: Db) => ({
  idx: db.prepare<[string], number>('SELECT idx FROM live_channels WHERE channel_id = ?').pluck(),
  ensure: db.prepare<[string], number>(
    'INSERT INTO live_channels (channel_id) VALUES (?) ON CONFLICT (channel_id) DO UPDATE SET channel_id = excluded.channel_id RETURNING idx',
  ).pluck(),
  readChannels: db.prepare<[], LiveChannelRow>("SELECT * FROM live_channels WHERE first_read_ms IS NOT NULL AND state = 'active'"),
  // Channels sharing a collab video with a channel: its partners.
  partners: db.prepare<[string], number>(
    `SELECT DISTINCT other.channel_idx FROM live_video_members mine
     JOIN live_video_members other ON other.video_id = mine.video_id AND other.channel_idx != mine.channel_idx
     WHERE mine.channel_idx = (SELECT idx FROM live_channels WHERE channel_id = ?)`,
  ).pluck(),
  // Channels listed on a collab video one of whose channels was scanned (the checked channels).
  listedOnKnown: db.prepare<[], number>(
    `SELECT DISTINCT m.channel_idx FROM live_video_members m
     WHERE EXISTS (SELECT 1 FROM live_video_members k JOIN live_channels c ON c.idx = k.channel_idx WHERE k.video_id = m.video_id AND c.collab_scanned = 1)`,
  ).pluck(),
  // Due: never swept, or swept (or tried) at least an interval ago. A read by someone else (a save,
  // a resolve) does not count: it does not read the uploads. Gone channels are not read again.
  dueAmong: db.prepare<[{ ids: string; before: number }], DueChannel>(
    `SELECT c.idx, c.channel_id, r.last_attempt_ms AS last_swept_ms, c.state FROM live_channels c LEFT JOIN live_refresh r ON r.channel_idx = c.idx
     WHERE c.idx IN (SELECT value FROM json_each(@ids)) AND c.state = 'active' AND COALESCE(r.last_attempt_ms, 0) <= @before`,
  ),
  claim: db.prepare<[{ idx: number; owner: string; expires: number; now: number }]>(
    `INSERT INTO live_refresh (channel_idx, lease_owner, lease_expires_ms) VALUES (@idx, @owner, @expires)
     ON CONFLICT (channel_idx) DO UPDATE SET lease_owner = excluded.lease_owner, lease_expires_ms = excluded.lease_expires_ms
     WHERE live_refresh.lease_owner IS NULL OR live_refresh.lease_expires_ms <= @now`,
  ),
  stillDue: db.prepare<[{ idx: number; before: number }], number>(
    `SELECT 1 FROM live_channels c LEFT JOIN live_refresh r ON r.channel_idx = c.idx
     WHERE c.idx = @idx AND c.state = 'active' AND COALESCE(r.last_attempt_ms, 0) <= @before`,
  ).pluck(),
  renew: db.prepare<[{ idx: number; owner: string; expires: number }]>('UPDATE live_refresh SET lease_expires_ms = @expires WHERE channel_idx = @idx AND lease_owner = @owner'),
  succeeded: db.prepare<[{ idx: number; owner: string; now: number }]>(
    'UPDATE live_refresh SET lease_owner = NULL, lease_expires_ms = NULL, last_attempt_ms = @now, failures = 0, last_error = NULL WHERE channel_idx = @idx AND lease_owner = @owner',
  ),
  failed: db.prepare<[{ idx: number; owner: string; now: number; error: string }]>(
    `UPDATE live_refresh SET lease_owner = NULL, lease_expires_ms = NULL, last_attempt_ms = @now, failures = failures + 1, last_error = @error
     WHERE channel_idx = @idx AND lease_owner = @owner`,
  ),
  // Given back untried (the platform could not be reached): due again at once.
  released: db.prepare<[{ idx: number; owner: string }]>('UPDATE live_refresh SET lease_owner = NULL, lease_expires_ms = NULL WHERE channel_idx = @idx AND lease_owner = @owner'),
  examined: db.prepare<[string], string>(
    "SELECT video_id FROM live_videos WHERE video_id IN (SELECT value FROM json_each(?)) AND members_read = 1",
  ).pluck(),
}));

export class RefreshStore {
  constructor(private readonly db: Db) {}

  private get s() {
    return statements(this.db);
  }

  /** The idx of a channel id (a bare row when the live index has none yet: a write only then). */
  idxOf(channelId: string): number {
    return this.s.idx.get(channelId) ?? this.s.ensure.get(channelId)!;
  }

  readChannels(): IterableIterator<LiveChannelRow> {
    return this.s.readChannels.iterate();
  }

  partnersOf(channelId: string): number[] {
    return this.s.partners.all(channelId);
  }

  checkedChannels(): number[] {
    return this.s.listedOnKnown.all();
  }

  due(idxs: readonly number[], before: number): DueChannel[] {
    return idxs.length === 0 ? [] : this.s.dueAmong.all({ ids: JSON.stringify(idxs), before });
  }

  /** Takes the channel's lease if it is free (or ran out) and the channel is still due. */
  claim(idx: number, owner: string, now: number, leaseMs: number, before: number): boolean {
    const take = this.db.transaction(() => {
      if (this.s.stillDue.get({ idx, before }) === undefined) return false;
      return this.s.claim.run({ idx, owner, expires: now + leaseMs, now }).changes > 0;
    });
    return take.immediate();
  }

  renew(idx: number, owner: string, expires: number): void {
    this.s.renew.run({ idx, owner, expires });
  }

  succeeded(idx: number, owner: string, now: number): void {
    this.s.succeeded.run({ idx, owner, now });
  }

  failed(idx: number, owner: string, now: number, error: string): void {
    this.s.failed.run({ idx, owner, now, error });
  }

  release(idx: number, owner: string): void {
    this.s.released.run({ idx, owner });
  }

  /** Of these videos, the ones whose watch page the index already read (it knows the channels they list). */
  examinedVideos(videoIds: readonly string[]): Set<string> {
    return new Set(videoIds.length === 0 ? [] : this.s.examined.all(JSON.stringify(videoIds)));
  }
}
