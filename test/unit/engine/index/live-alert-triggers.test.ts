/**
 * Alert rules over a live index: a breakout needs 24 hours and the 28 days before them covered by
 * snapshots — no trigger while the history is shorter — and is judged at the channel's latest
 * read, never on a read older than a day.
 */
import { expect, it } from 'vitest';
import { TriggerCache } from '../../../../src/engine/features/alerts/alert-types.js';
import type { EngineIndex } from '../../../../src/engine/index/engine-index.js';
import { recordReads } from '../../../../src/engine/index/live/read-recorder.js';
import type { Store } from '../../../../src/engine/store/store.js';
import { describeEachStore, liveChannel, scanAll, useLiveIndex } from '../../../support/live-reads.js';

const T0 = Date.UTC(2026, 9, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let store: Store;
let index: EngineIndex;
describeEachStore('alert rules over the live index', (kind) => {
  useLiveIndex((opened) => ({ store, index } = opened), kind);

  /** Reads every 6 hours through `days`: 1,000 views a day, then 10,000 on the last day. */
  async function watch(days: number): Promise<number> {
    let views = 50_000;
    let at = T0;
    for (; at <= T0 + days * DAY; at += 6 * HOUR) {
      await recordReads(store, [{ read: { channel: liveChannel({ total_views: Math.round(views), subscribers: 2_000 }) }, atMs: at }], () => null);
      views += at >= T0 + (days - 1) * DAY ? 2_500 : 250;
    }
    return at - 6 * HOUR;
  }

  it('finds no breakout while the 28 days before the last 24 hours are not covered', async () => {
    const latest = await watch(20);
    expect(await new TriggerCache(index, latest).triggers('breakout', 'longform')).toEqual([]);
  });

  it('finds the breakout once they are, at the latest read, and not on a read older than a day', async () => {
    const latest = await watch(30);
    const [trigger] = await new TriggerCache(index, latest + HOUR).triggers('breakout', 'longform');
    expect(trigger).toMatchObject({
      type: 'breakout',
      key: new Date(latest).toISOString().slice(0, 10),
      figures: { views_24h: 10_000, average_daily_views_28d: 1_000, multiple: 10, subscribers_24h: 0, subscribers: 2_000 },
      reason: '10,000 views in the last 24 hours, 10× its average of 1,000 a day over the 28 days before; +0 subscribers.',
    });
    expect(await new TriggerCache(index, latest + DAY + HOUR).triggers('breakout', 'longform')).toEqual([]);
  });

  it('brings a scan the snapshots it asked for: the same figures as reading them, and a read for instants it did not ask', async () => {
    const latest = await watch(30);
    const [row] = (await scanAll(index.channels.scan({ figuresBefore: [0, DAY, 29 * DAY] })));
    const asked = [latest, latest - DAY, latest - 29 * DAY];
    expect(await index.statistics.totalsAt(row!, asked)).toEqual(await index.statistics.totalsAt(row!.channel_id, asked));
    expect(await index.statistics.totalsAt(row!, [latest - 3 * DAY])).toEqual(await index.statistics.totalsAt(row!.channel_id, [latest - 3 * DAY]));
    expect((await index.statistics.totalsAt(row!, [latest - 3 * DAY]))![0]!.views).not.toBeNull();
  });
});
