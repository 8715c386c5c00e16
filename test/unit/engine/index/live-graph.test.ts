/**
 * The live index's channels and collab graph, as reads fill them: a channel is known once read
 * (listed on a collab it only has an id), scans see active channels narrowed in SQL, and a collab
 * video is known — its channels checked — once one of them is scanned by the sweep.
 */
import { describe, expect, it } from 'vitest';
import type { EngineIndex } from '../../../../src/engine/index/engine-index.js';
import { recordReads, type LiveRead } from '../../../../src/engine/index/live/read-recorder.js';
import type { Store } from '../../../../src/engine/store/store.js';
import { describeEachStore, liveChannel, liveVideo as video, scanAll, useLiveIndex } from '../../../support/live-reads.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 86_400_000;
const [JANE, SAM, ALEX] = ['UCgraphJane0000000000001', 'UCgraphSam00000000000002', 'UCgraphAlex0000000000003'];

let store: Store;
let index: EngineIndex;
const record = (read: LiveRead, atMs = NOW) => recordReads(store, [{ read, atMs }], (code) => (code === 'en' ? 'English' : null));

describeEachStore('the live index: channels and collab graph', (kind) => {
  useLiveIndex((opened) => ({ store, index } = opened), kind);

  describe('known channels of the live index', () => {
    it('knows a channel once read, keeps what the site does not repeat, and scans only active ones', async () => {
      await record({ channel: liveChannel({ channel_id: JANE, content_type: 'mixed', created_at: '2026-11-18' }) });
      await record({ channel: liveChannel({ channel_id: SAM, content_type: 'longform' }) });
      expect(await index.channels.byId(JANE)).toMatchObject({ idx: 1, channel_id: JANE, content_type: 'mixed', language: null, collab_scanned: false });
      expect((await scanAll(index.channels.scan({ contentTypes: ['mixed'] }))).map((c) => c.channel_id)).toEqual([JANE]);
      expect((await index.channels.createdSince('2026-11-13')).map((c) => c.channel_id)).toEqual([JANE]);
      expect((await scanAll(index.channels.scan({ createdBy: '2026-11-01' }))).map((c) => c.channel_id)).toEqual([SAM]);
      // A read of a watch page teaches the host's language (from its captions); a later read of the channel keeps it.
      await record({ watched: [video('vidJane0001', JANE, { spoken_language: 'en', channel_ids: [JANE] })] });
      await record({ channel: liveChannel({ channel_id: JANE, content_type: null }) });
      expect(await index.channels.byId(JANE)).toMatchObject({ language: 'English', language_code: 'en', content_type: 'mixed' });
      await record({ gone: { channel_id: SAM, state: 'terminated', reason: 'This account has been terminated.' } });
      expect((await scanAll(index.channels.scan())).map((c) => c.channel_id)).toEqual([JANE]);
      expect(await index.channels.byId(SAM)).toMatchObject({ channel_id: SAM, title: 'Snapshot Channel' });
    });

    it('keeps the newest uploads of each kind for alert scans, exact dates over estimated ones', async () => {
      await record({ channel: liveChannel({ channel_id: JANE }) });
      await record({
        listed: [
          video('vidA0000001', JANE, { published_at: new Date(NOW - 3 * DAY).toISOString(), views: 50 }),
          video('vidA0000002', JANE, { published_at: new Date(NOW - 2 * DAY).toISOString(), views: 70 }),
          video('vidS0000001', JANE, { kind: 'short', published_at: '' }),
        ],
      });
      const jane = (await scanAll(index.channels.scan()))[0]!;
      expect((await index.channels.recentVideoStats(jane, 'long')).map((v) => [v.video_id, v.views])).toEqual([['vidA0000002', 70], ['vidA0000001', 50]]);
      // The first listing of its shorts gives no date: unknown, not "now".
      expect(await index.channels.recentVideoStats(jane, 'short')).toEqual([]);
      expect(await index.channels.publishedSince(jane, NOW - 2.5 * DAY, 'long')).toBe(true);
      expect(await scanAll(index.channels.scan({ publishedAfter: { kind: 'long', ms: NOW - 2.5 * DAY } }))).toHaveLength(1);
      expect(await scanAll(index.channels.scan({ publishedAfter: { kind: 'long', ms: NOW - DAY } }))).toHaveLength(0);
      // The watch page's exact date replaces the estimate; a later listing's estimate does not.
      await record({ watched: [video('vidA0000001', JANE, { published_at: new Date(NOW - DAY / 2).toISOString() })] });
      await record({ listed: [video('vidA0000001', JANE, { published_at: new Date(NOW - 5 * DAY).toISOString(), views: 90 })] });
      expect((await index.channels.recentVideoStats(jane, 'long'))[0]).toMatchObject({ video_id: 'vidA0000001', views: 90, published_ms: NOW - DAY / 2 });
      // A short that appears on a later listing was published since the one before: its first sighting stands in.
      await record({ listed: [video('vidS0000002', JANE, { kind: 'short', published_at: '' })] }, NOW + DAY);
      expect(await index.channels.recentVideoStats(jane, 'short')).toEqual([expect.objectContaining({ video_id: 'vidS0000002', published_ms: NOW + DAY })]);
      expect(await index.channels.videoTitle('vidS0000002')).toBe('Title of vidS0000002');
    });
  });

  describe('the live collab graph', () => {
    it('is built from watch pages; a collab is known, and its channels checked, once one of them is scanned', async () => {
      await record({ channel: liveChannel({ channel_id: JANE }) });
      await record({ watched: [video('vidCollab01', JANE, { channel_ids: [JANE, SAM], views: 5000 })] });
      const jane = (await index.channels.byId(JANE))!;
      const samIdx = (await store.get<{ idx: number }>('SELECT idx FROM live_channels WHERE channel_id = ?', [SAM]))!.idx;
      // Sam is listed (an idx and an id) but not known until read.
      expect(await index.channels.byId(SAM)).toBeNull();
      expect(await index.channels.idOf(samIdx)).toBe(SAM);
      const [listing] = (await index.collabs.involving(samIdx, NOW));
      expect(listing).toMatchObject({ video_id: 'vidCollab01', host_idx: jane.idx, members: [jane.idx, samIdx], known: false });
      expect(await index.collabs.isChecked(samIdx, false, NOW)).toBe(false);
      expect(await index.collabs.knownPublished(0, NOW)).toEqual([]);

      await record({ scanned: JANE });
      expect(await index.collabs.isChecked(samIdx, false, NOW)).toBe(true);
      expect((await index.collabs.checkedChannels(NOW)).sort()).toEqual([jane.idx, samIdx].sort());
      const known = (await index.collabs.knownPublished(NOW - 7 * DAY, NOW));
      expect(known.map((l) => l.video_id)).toEqual(['vidCollab01']);
      expect(await index.collabs.views(known[0]!, NOW)).toBe(5000);
      // Visible from when the engine first saw it.
      expect(await index.collabs.involving(samIdx, NOW - 1)).toEqual([]);
      const { aggregates, listed } = (await index.collabs.snapshot(NOW));
      expect([...listed].sort()).toEqual([jane.idx, samIdx].sort());
      expect(aggregates.get(jane.idx)).toMatchObject({ partners: 1, collab_videos: 1 });

      // A channel listed on no known collab is not checked; a video that lists one channel no longer is a collab.
      await record({ watched: [video('vidSolo0001', ALEX)] });
      const alexIdx = (await store.get<{ idx: number }>('SELECT idx FROM live_channels WHERE channel_id = ?', [ALEX]))!.idx;
      expect(await index.collabs.isChecked(alexIdx, false, NOW)).toBe(false);
      await record({ watched: [video('vidCollab01', JANE, { channel_ids: [JANE] })] });
      expect(await index.collabs.involving(samIdx, NOW)).toEqual([]);
    });
  });
});
