/**
 * The refresh sweep's tables and reads (one place for its SQL), on the engine's store — a fleet's
 * servers share one: which channels it watches, which of them are due, and the claims that keep
 * two processes (on one machine or many) from reading one channel at once — a lease per channel
 * in `live_refresh`, taken in a transaction that holds the channel's name (store locks) and
 * re-checks the channel is still due — in the claim's own statement too, so a sweep that finished
 * the channel between the check and the claim is seen — and given back (or let run out, when its
 * process died) after the read.
 */
import { inList, LIVE_CHANNELS_COLUMNS, type LiveChannelRow } from '../../index/live/channel-rows.js';
import { ensureChannel } from '../../index/live/read-recorder.js';
import type { Executor, Store } from '../../store/store.js';

export interface DueChannel {
  idx: number;
  channel_id: string;
  /** The sweep's last read of it, or try (null: never swept). */
  last_swept_ms: number | null;
  state: string;
}

const SQL = {
  idx: 'SELECT idx FROM live_channels WHERE channel_id = ?',
  readChannels: `SELECT ${LIVE_CHANNELS_COLUMNS} FROM live_channels WHERE first_read_ms IS NOT NULL AND state = 'active' AND idx > ? ORDER BY idx LIMIT ?`,
  // Channels sharing a collab video with a channel: its partners.
  partners: `SELECT DISTINCT other.channel_idx AS idx FROM live_video_members mine
     JOIN live_video_members other ON other.video_id = mine.video_id AND other.channel_idx != mine.channel_idx
     WHERE mine.channel_idx = (SELECT idx FROM live_channels WHERE channel_id = ?)`,
  // Channels listed on a collab video one of whose channels was scanned (the checked channels).
  listedOnKnown: `SELECT DISTINCT m.channel_idx AS idx FROM live_video_members m
     WHERE EXISTS (SELECT 1 FROM live_video_members k JOIN live_channels c ON c.idx = k.channel_idx WHERE k.video_id = m.video_id AND c.collab_scanned = 1)`,
  // Due: never swept, or swept (or tried) at least an interval ago. A read by someone else (a save,
  // a resolve) does not count: it does not read the uploads. Gone channels are not read again.
  dueAmong: (among: string) => `SELECT c.idx, c.channel_id, r.last_attempt_ms AS last_swept_ms, c.state FROM live_channels c LEFT JOIN live_refresh r ON r.channel_idx = c.idx
     WHERE ${among} AND c.state = 'active' AND COALESCE(r.last_attempt_ms, 0) <= ?`,
  stillDue: `SELECT 1 AS due FROM live_channels c LEFT JOIN live_refresh r ON r.channel_idx = c.idx
     WHERE c.idx = ? AND c.state = 'active' AND COALESCE(r.last_attempt_ms, 0) <= ?`,
  // Parameters: idx, owner, expires, now, before. The row's own condition is judged on its latest
  // version: a sweep that just finished the channel (no lease, read now) has it no longer due.
  claim: `INSERT INTO live_refresh (channel_idx, lease_owner, lease_expires_ms) VALUES (?, ?, ?)
     ON CONFLICT (channel_idx) DO UPDATE SET lease_owner = excluded.lease_owner, lease_expires_ms = excluded.lease_expires_ms
     WHERE (live_refresh.lease_owner IS NULL OR live_refresh.lease_expires_ms <= ?) AND COALESCE(live_refresh.last_attempt_ms, 0) <= ?`,
  renew: 'UPDATE live_refresh SET lease_expires_ms = ? WHERE channel_idx = ? AND lease_owner = ?',
  succeeded: 'UPDATE live_refresh SET lease_owner = NULL, lease_expires_ms = NULL, last_attempt_ms = ?, failures = 0, last_error = NULL WHERE channel_idx = ? AND lease_owner = ?',
  failed: `UPDATE live_refresh SET lease_owner = NULL, lease_expires_ms = NULL, last_attempt_ms = ?, failures = failures + 1, last_error = ?
     WHERE channel_idx = ? AND lease_owner = ?`,
  // Given back untried (the platform could not be reached): due again at once.
  released: 'UPDATE live_refresh SET lease_owner = NULL, lease_expires_ms = NULL WHERE channel_idx = ? AND lease_owner = ?',
  examined: (among: string) => `SELECT video_id FROM live_videos WHERE ${among} AND members_read = 1`,
} as const;

/** Rows per page when the watch list reads every known channel. */
const READ_PAGE = 2_000;

export class RefreshStore {
  constructor(private readonly store: Store) {}

  /** The idx of a channel id (a bare row when the live index has none yet: a write only then). */
  async idxOf(channelId: string): Promise<number> {
    return (await this.store.get<{ idx: number }>(SQL.idx, [channelId]))?.idx ?? (await ensureChannel(this.store, channelId));
  }

  /** Every read, active channel, a page at a time in key order. */
  async *readChannels(): AsyncIterable<LiveChannelRow[]> {
    for (let after = -1; ; ) {
      const rows = await this.store.all<LiveChannelRow>(SQL.readChannels, [after, READ_PAGE]);
      if (rows.length > 0) yield rows;
      if (rows.length < READ_PAGE) return;
      after = rows.at(-1)!.idx;
    }
  }

  async partnersOf(channelId: string): Promise<number[]> {
    return (await this.store.all<{ idx: number }>(SQL.partners, [channelId])).map((row) => row.idx);
  }

  async checkedChannels(): Promise<number[]> {
    return (await this.store.all<{ idx: number }>(SQL.listedOnKnown)).map((row) => row.idx);
  }

  async due(idxs: readonly number[], before: number): Promise<DueChannel[]> {
    if (idxs.length === 0) return [];
    const [among, list] = inList(this.store.dialect, 'c.idx', idxs, 'bigint');
    return this.store.all<DueChannel>(SQL.dueAmong(among), [list, before]);
  }

  /**
   * Takes the channel's lease if it is free (or ran out) and the channel is still due. The
   * channel's name is held meanwhile, so a fleet's sweeps check and claim one at a time: a channel
   * another server just read is no longer due when the next asks.
   */
  async claim(idx: number, owner: string, now: number, leaseMs: number, before: number): Promise<boolean> {
    return this.store.transaction(
      async (tx: Executor) => {
        if ((await tx.get(SQL.stillDue, [idx, before])) === undefined) return false;
        return (await tx.run(SQL.claim, [idx, owner, now + leaseMs, now, before])).changes > 0;
      },
      { locks: [`live-refresh:${idx}`] },
    );
  }

  async renew(idx: number, owner: string, expires: number): Promise<void> {
    await this.store.run(SQL.renew, [expires, idx, owner]);
  }

  async succeeded(idx: number, owner: string, now: number): Promise<void> {
    await this.store.run(SQL.succeeded, [now, idx, owner]);
  }

  async failed(idx: number, owner: string, now: number, error: string): Promise<void> {
    await this.store.run(SQL.failed, [now, error, idx, owner]);
  }

  async release(idx: number, owner: string): Promise<void> {
    await this.store.run(SQL.released, [idx, owner]);
  }

  /** Of these videos, the ones whose watch page the index already read (it knows the channels they list). */
  async examinedVideos(videoIds: readonly string[]): Promise<Set<string>> {
    if (videoIds.length === 0) return new Set();
    const [among, list] = inList(this.store.dialect, 'video_id', videoIds, 'text');
    return new Set((await this.store.all<{ video_id: string }>(SQL.examined(among), [list])).map((row) => row.video_id));
  }
}
