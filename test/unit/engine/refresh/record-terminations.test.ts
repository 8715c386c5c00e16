/**
 * The records the sweep hands the terminated store, built from the live index's snapshots: the
 * shape `recordTerminatedChannels(db, records)` takes (index/terminated/live-records.ts), with the
 * last figures stored and the 24h/48h gains before the termination, null where not known.
 */
import { expect, it } from 'vitest';
import { terminatedRecords } from '../../../../src/engine/features/refresh/record-terminations.js';
import type { EngineIndex } from '../../../../src/engine/index/engine-index.js';
import { recordReads, type LiveRead } from '../../../../src/engine/index/live/read-recorder.js';
import type { Store } from '../../../../src/engine/store/store.js';
import { liveChannel, liveVideo, useLiveIndex } from '../../../support/live-reads.js';

const T0 = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const [ACTIVE, GONE, HIDDEN, NEVER] = ['UCrecordActive0000000001', 'UCrecordGone000000000002', 'UCrecordHidden0000000003', 'UCrecordNever00000000004'];

let store: Store;
let index: EngineIndex;
const record = (read: LiveRead, atMs: number) => recordReads(store, [{ read, atMs }], () => null);

useLiveIndex((opened) => ({ store, index } = opened));

it('keeps the last figures, the gains of the 24 and 48 hours before, the language, content type and most viewed videos', async () => {
  for (let hour = 0; hour <= 48; hour += 6) {
    await record({ channel: liveChannel({ channel_id: GONE, title: 'Gone Soon', subscribers: 700 + hour, total_views: 90_000 + hour * 50, video_count: 31, content_type: 'mixed' }) }, T0 + hour * HOUR);
  }
  await record({ watched: ['a', 'b', 'c', 'd'].map((n, i) => liveVideo(`vid${n}0000000`, GONE, { title: `Video ${n}`, views: 100 * (i + 1), kind: i === 3 ? 'short' : 'long', spoken_language: 'de' })) }, T0 + 48 * HOUR);
  await record({ channel: liveChannel({ channel_id: ACTIVE }) }, T0);
  await record({ gone: { channel_id: GONE, state: 'terminated', reason: 'This account has been terminated.' } }, T0 + 54 * HOUR);
  // Still terminated at the next read: when it was first found so stays.
  await record({ gone: { channel_id: GONE, state: 'terminated', reason: 'This account has been terminated.' } }, T0 + 60 * HOUR);
  await store.run("UPDATE live_channels SET language_code = 'de' WHERE channel_id = ?", [GONE]);

  expect(await terminatedRecords({ store }, index, [ACTIVE, GONE])).toEqual([
    {
      channel_id: GONE,
      channel_title: 'Gone Soon',
      terminated_at: new Date(T0 + 54 * HOUR).toISOString(),
      subscribers: 748,
      total_views: 92_400,
      video_count: 31,
      views_24h: 1_200,
      views_48h: 2_400,
      subs_24h: 24,
      subs_48h: 48,
      language_code: 'de',
      content_type: 'mixed',
      top_videos: [
        { video_id: 'vidd0000000', title: 'Video d', views: 400, kind: 'short' },
        { video_id: 'vidc0000000', title: 'Video c', views: 300, kind: 'long' },
        { video_id: 'vidb0000000', title: 'Video b', views: 200, kind: 'long' },
      ],
    },
  ]);
});

it('leaves unknown what the index never knew: hidden counts, gains, a channel never read', async () => {
  const hidden = { subscribers: null, counts_exact: { subscribers: false, total_views: true, video_count: true } };
  await record({ channel: liveChannel({ channel_id: HIDDEN, title: 'Hidden', ...hidden, content_type: null }) }, T0);
  // A video whose views no read gave cannot rank among the most viewed: no top videos, not one of 0 views.
  await record({ listed: [liveVideo('hidden00001', HIDDEN, { title: 'Views hidden', views: null })] }, T0);
  await record({ gone: { channel_id: HIDDEN, state: 'missing', reason: null } }, T0 + HOUR);
  await record({ gone: { channel_id: NEVER, state: 'terminated', reason: 'terminated' } }, T0 + HOUR);
  expect(await terminatedRecords({ store }, index, [HIDDEN, NEVER])).toEqual([
    { channel_id: HIDDEN, channel_title: 'Hidden', terminated_at: new Date(T0 + HOUR).toISOString(), subscribers: null, total_views: 1000, video_count: 10, views_24h: null, views_48h: null, subs_24h: null, subs_48h: null },
    { channel_id: NEVER, channel_title: NEVER, terminated_at: new Date(T0 + HOUR).toISOString(), subscribers: null, total_views: null, video_count: null, views_24h: null, views_48h: null, subs_24h: null, subs_48h: null },
  ]);
});
