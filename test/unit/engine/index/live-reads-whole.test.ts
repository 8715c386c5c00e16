/**
 * Reads are stored whole or not at all, on either store: the reads of one `together` (a channel
 * job, a sweep's read of one channel) are written in one transaction, so a write that fails takes
 * the ones before it back with it — on SQLite and on a fleet's PostgreSQL alike.
 */
import { expect, it } from 'vitest';
import type { EngineIndex } from '../../../../src/engine/index/engine-index.js';
import { recordReads } from '../../../../src/engine/index/live/read-recorder.js';
import type { Store } from '../../../../src/engine/store/store.js';
import { describeEachStore, liveChannel, liveVideo, useLiveIndex } from '../../../support/live-reads.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const JANE = 'UCwholeJane0000000000001';

let store: Store;
let index: EngineIndex;

describeEachStore('reads stored together', (kind) => {
  useLiveIndex((opened) => ({ store, index } = opened), kind);

  it('stores none of the reads when one of them cannot be written, and all of them otherwise', async () => {
    // A video without a title breaks the table's NOT NULL rule: the write fails after the channel's.
    const broken = liveVideo('vidWhole001', JANE, { title: null as unknown as string });
    await expect(recordReads(store, [{ read: { channel: liveChannel({ channel_id: JANE }) }, atMs: NOW }, { read: { listed: [broken] }, atMs: NOW }], () => null)).rejects.toThrow();
    expect(await index.channels.byId(JANE)).toBeNull();
    expect(await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM live_snapshots')).toEqual({ n: 0 });

    await recordReads(store, [{ read: { channel: liveChannel({ channel_id: JANE }) }, atMs: NOW }, { read: { listed: [liveVideo('vidWhole001', JANE)] }, atMs: NOW }], () => null);
    expect(await index.channels.byId(JANE)).toMatchObject({ channel_id: JANE });
    expect(await index.channels.videoTitle('vidWhole001')).toBe('Title of vidWhole001');
  });
});
