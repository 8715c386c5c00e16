/**
 * Figures over time on the live index: every read stores a snapshot, and a 24h/48h/7d/30d figure is
 * null until the snapshots cover its window — then it is the right difference, never an invention.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../../src/engine/dates.js';
import type { EngineIndex } from '../../../../src/engine/index/engine-index.js';
import { recordReads } from '../../../../src/engine/index/live/read-recorder.js';
import type { Store } from '../../../../src/engine/store/store.js';
import { describeEachStore, liveChannel, scanAll, useLiveIndex } from '../../../support/live-reads.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);
const ID = 'UCsnapshotChannel0000001';


let store: Store;
let index: EngineIndex;

describeEachStore('the live index: snapshots', (kind) => {
  useLiveIndex((opened) => ({ store, index } = opened), kind);

  const read = (atMs: number, views: number, subscribers = 100) => recordReads(store, [{ read: { channel: liveChannel({ total_views: views, subscribers }) }, atMs }], () => null);

  describe('snapshot statistics', () => {
    it('knows nothing of a channel never read, and no history before its first read', async () => {
      expect(await index.statistics.deltas(ID)).toBeNull();
      expect(await index.statistics.growth(ID, 7)).toBeNull();
      expect(await index.statistics.coverage!(ID)).toBeNull();
      await read(T0, 1000);
      expect(await index.statistics.coverage!(ID)).toEqual({ watched_since_ms: T0, latest_ms: T0 });
      expect(await index.statistics.deltas(ID)).toEqual({ views_24h: null, views_48h: null, subs_24h: null, subs_48h: null });
      expect(await index.statistics.growth(ID, 7)).toEqual({ subscribers: null, views: null });
      expect(await index.statistics.growth(ID, 0)).toEqual({ subscribers: 0, views: 0 });
    });

    it('gives the 24h delta once the snapshots reach 24 hours back, the 48h one once they reach 48', async () => {
      await read(T0, 1000, 100);
      await read(T0 + 12 * HOUR, 1500, 110);
      expect(await index.statistics.deltas(ID)).toEqual({ views_24h: null, views_48h: null, subs_24h: null, subs_48h: null });
      await read(T0 + 24 * HOUR, 2200, 130);
      expect(await index.statistics.deltas(ID)).toEqual({ views_24h: 1200, views_48h: null, subs_24h: 30, subs_48h: null });
      // 24 hours before T0+30h is T0+6h: halfway between the reads at T0 and T0+12h.
      await read(T0 + 30 * HOUR, 2500, 140);
      expect(await index.statistics.deltas(ID)).toMatchObject({ views_24h: 2500 - 1250, subs_24h: 140 - 105 });
      for (let hour = 36; hour <= 48; hour += 6) await read(T0 + hour * HOUR, 2500 + hour * 10, 150);
      expect(await index.statistics.deltas(ID)).toEqual({ views_24h: 2980 - 2200, views_48h: 2980 - 1000, subs_24h: 20, subs_48h: 50 });
      expect(await index.statistics.coverage!(ID)).toEqual({ watched_since_ms: T0, latest_ms: T0 + 48 * HOUR });
    });

    it('does not read a figure across a gap of more than 12 hours between reads', async () => {
      await read(T0, 1000);
      await read(T0 + 30 * HOUR, 4000);
      expect((await index.statistics.deltas(ID))!.views_24h).toBeNull();
      expect(await index.statistics.totalsAt(ID, [T0, T0 + 6 * HOUR, T0 + 30 * HOUR])).toEqual([
        { subscribers: 100, views: 1000 },
        { subscribers: null, views: null },
        { subscribers: 100, views: 4000 },
      ]);
      await read(T0 + 40 * HOUR, 5000);
      // 24 hours before T0+40h is T0+16h, inside the 30-hour gap: still unknown.
      expect((await index.statistics.deltas(ID))!.views_24h).toBeNull();
    });

    it('gives 7- and 30-day growth only once a week and a month are watched', async () => {
      for (let day = 0; day <= 30; day++) {
        for (const hour of [0, 6, 12, 18]) {
          if (day === 30 && hour > 0) break;
          await read(T0 + day * DAY_MS + hour * HOUR, 10_000 + day * 1000 + hour * 10, 500 + day);
        }
        if (day === 6) expect(await index.statistics.growth(ID, 7)).toEqual({ subscribers: null, views: null });
        if (day === 7) expect(await index.statistics.growth(ID, 7)).toEqual({ subscribers: 7, views: 7000 });
        if (day === 29) expect(await index.statistics.growth(ID, 30)).toEqual({ subscribers: null, views: null });
      }
      expect(await index.statistics.growth(ID, 30)).toEqual({ subscribers: 30, views: 30_000 });
      expect(await index.statistics.growth(ID, 7)).toEqual({ subscribers: 7, views: 7000 });
    });

    it('treats a subscriber count the site hid as unknown, not zero', async () => {
      const hidden = { subscribers: null, counts_exact: { subscribers: false, total_views: true, video_count: true } };
      await recordReads(store, [{ read: { channel: liveChannel({ ...hidden, total_views: 1000 }) }, atMs: T0 }], () => null);
      await recordReads(store, [{ read: { channel: liveChannel({ ...hidden, total_views: 1900 }) }, atMs: T0 + DAY_MS }], () => null);
      expect(await index.statistics.deltas(ID)).toEqual({ views_24h: 900, views_48h: null, subs_24h: null, subs_48h: null });
    });

    it('lists whole days the snapshots cover, the latest read ending the last one', async () => {
      for (let hour = 0; hour <= 60; hour += 6) await read(T0 + hour * HOUR, 1000 + hour * 100, 100 + hour);
      expect(await index.statistics.dailyStats(ID)).toEqual([
        { date: '2026-11-01', subscribers: 124, views: 3400, subscribers_gained: 24, views_gained: 2400 },
        { date: '2026-11-02', subscribers: 148, views: 5800, subscribers_gained: 24, views_gained: 2400 },
        { date: '2026-11-03', subscribers: 160, views: 7000, subscribers_gained: 12, views_gained: 1200 },
      ]);
    });
  });
});
