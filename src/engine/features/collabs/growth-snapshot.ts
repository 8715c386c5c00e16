/**
 * Collab growth, computed every 6 hours of world time — never per request. The snapshot is taken
 * for the latest 6-hour boundary of world time (`computed_at`) the first time anyone needs it,
 * and written once (an IMMEDIATE transaction re-checks, so concurrent processes write it once). It holds,
 * for every checked channel (scanned, or listed on a known collab video), its 7- and 30-day
 * subscriber and view growth over complete days, through the last day completed by the boundary
 * (`growth_through`), and its collab partners, video count and latest collab as of the boundary.
 * A live channel's figures are null for days its snapshots do not cover.
 */
import type { EngineContext } from '../../context.js';
import { preparedFor } from '../../store/prepared.js';
import type { EngineIndex } from '../../index/engine-index.js';

export const GROWTH_REFRESH_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

export interface GrowthRun {
  computed_at_ms: number;
  growth_through: string;
}

export interface GrowthRow {
  channel_id: string;
  channel_idx: number;
  handle: string | null;
  title: string;
  language: string | null;
  // Null where the snapshots of a live channel do not cover the day (see index/statistics.ts).
  subscribers: number | null;
  subs_7d: number | null;
  subs_30d: number | null;
  views_7d: number | null;
  views_30d: number | null;
  subs_start_7d: number | null;
  subs_start_30d: number | null;
  views_start_7d: number | null;
  views_start_30d: number | null;
  partners: number;
  collab_videos: number;
  latest_collab_ms: number | null;
}

const GROWTH_COLUMNS = 17;
/** Rows per INSERT: multi-row statements cut per-statement overhead on big worlds. */
const INSERT_BATCH = 50;
const insertSql = (rows: number) => `INSERT INTO collab_growth VALUES ${Array(rows).fill(`(${Array(GROWTH_COLUMNS).fill('?').join(', ')})`).join(', ')}`;

const statements = preparedFor((db) => ({
  run: db.prepare<[], { world_generated_at: string; computed_at_ms: number; growth_through: string }>('SELECT * FROM collab_growth_runs WHERE id = 1'),
  clear: db.prepare('DELETE FROM collab_growth'),
  insertBatch: db.prepare(insertSql(INSERT_BATCH)),
  saveRun: db.prepare<[string, number, string, number]>(
    `INSERT INTO collab_growth_runs (id, world_generated_at, computed_at_ms, growth_through, computed_wall_ms) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET world_generated_at = excluded.world_generated_at, computed_at_ms = excluded.computed_at_ms,
       growth_through = excluded.growth_through, computed_wall_ms = excluded.computed_wall_ms`,
  ),
  byChannel: db.prepare<[string], GrowthRow>('SELECT * FROM collab_growth WHERE channel_id = ?'),
}));

/**
 * The snapshot for the current 6-hour boundary of world time (`nowMs`, the platform's now),
 * computing it if it is not there yet. The figures are computed outside any transaction (a read
 * of the index); only the write takes the lock, after checking no other process wrote this
 * boundary meanwhile. A snapshot of another edition of the index (a rebuilt world) is not reused.
 */
export async function currentGrowthRun(engine: EngineContext, index: EngineIndex, nowMs: number): Promise<GrowthRun> {
  const s = statements(engine.db);
  const boundary = Math.floor(nowMs / GROWTH_REFRESH_MS) * GROWTH_REFRESH_MS;
  const fresh = () => {
    const run = s.run.get();
    return run && run.world_generated_at === index.edition && run.computed_at_ms === boundary ? run : undefined;
  };
  const existing = fresh();
  if (existing) return existing;

  const throughDay = Math.floor(boundary / DAY_MS) - 1;
  const through = new Date(throughDay * DAY_MS).toISOString().slice(0, 10);
  const { aggregates, listed } = await index.collabs.snapshot(boundary);
  const values: unknown[] = [];
  for await (const page of index.channels.scan()) {
    for (const channel of page) {
      if (!channel.collab_scanned && !listed.has(channel.idx)) continue;
      const [end, week, month] = (await index.statistics.totalsAt(channel, [(throughDay + 1) * DAY_MS, (throughDay - 6) * DAY_MS, (throughDay - 29) * DAY_MS]))!;
      const collab = aggregates.get(channel.idx);
      values.push(
        channel.channel_id, channel.idx, channel.handle, channel.title, channel.language, end!.subscribers,
        gain(end!.subscribers, week!.subscribers), gain(end!.subscribers, month!.subscribers), gain(end!.views, week!.views), gain(end!.views, month!.views),
        week!.subscribers, month!.subscribers, week!.views, month!.views,
        collab?.partners ?? 0, collab?.collab_videos ?? 0, collab?.latest_published_ms ?? null,
      );
    }
  }
  const write = engine.db.transaction(() => {
    const again = fresh();
    if (again) return again;
    s.clear.run();
    const batch = INSERT_BATCH * GROWTH_COLUMNS;
    let at = 0;
    for (; at + batch <= values.length; at += batch) s.insertBatch.run(values.slice(at, at + batch));
    if (at < values.length) engine.db.prepare(insertSql((values.length - at) / GROWTH_COLUMNS)).run(values.slice(at));
    s.saveRun.run(index.edition, boundary, through, engine.clock.now());
    return { computed_at_ms: boundary, growth_through: through };
  });
  return write.immediate();
}

/** A gain between two figures; null when the index cannot tell either (a live channel not watched that long). */
function gain(to: number | null, from: number | null): number | null {
  return to === null || from === null ? null : to - from;
}

export function growthOf(engine: EngineContext, channelId: string): GrowthRow | undefined {
  return statements(engine.db).byChannel.get(channelId);
}
