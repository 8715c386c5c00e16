/** The managed-network verdict from public pages: `managed` only on a strong signal, the owner as shown. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/engine/clock.js';
import { SqliteStore } from '../../../src/engine/store/sqlite-store.js';
import { awaitLiveCheck, claimLiveCheck, finishLiveCheck } from '../../../src/engine/features/checks/live-claim.js';
import { judgeNetworkPages, licensorOf, liveOwnerOid, providerOf } from '../../../src/engine/features/checks/live-network-judgement.js';
import type { ChannelPages, ChannelPageVideo } from '../../../src/engine/platform/public-pages.js';
import { openDatabase } from '../../../src/engine/store/database.js';

const video = (n: number, description = '', licensing: string[] = []): ChannelPageVideo => ({
  video_id: `video${String(n).padStart(6, '0')}`,
  url: `https://www.youtube.com/watch?v=video${n}`,
  title: `Video ${n}`,
  description,
  views: 100,
  published_at: '',
  paid_promotion: false,
  licensing,
});
const pages = (videos: ChannelPageVideo[], extra: Partial<ChannelPages> = {}): ChannelPages => ({
  channel_id: 'UCaaaaaaaaaaaaaaaaaaaaaa',
  channel_url: 'https://www.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa/about',
  title: 'Some Channel',
  description: '',
  links: [],
  official_artist: false,
  videos,
  unread: [],
  ...extra,
});
const art = (n: number, provider = 'Lanternfish Distribution') => video(n, `Provided to YouTube by ${provider}\n\nSong · Artist`);

describe('reading owners off the pages', () => {
  it('reads the distributor of an art track and the first owner of a licensing row', () => {
    expect(providerOf('Provided to YouTube by CD Example.\n\nSong')).toBe('CD Example');
    expect(providerOf('A vlog, no music.')).toBeNull();
    expect(licensorOf('Example Music Group (on behalf of Tidewater Records); ASCAP, BMI')).toBe('Example Music Group');
    expect(licensorOf('  ')).toBeNull();
  });

  it('derives the same oid from the same name however it is spaced or cased', () => {
    expect(liveOwnerOid('Lanternfish Distribution')).toBe(liveOwnerOid(' lanternfish   distribution '));
    expect(liveOwnerOid('Lanternfish Distribution')).not.toBe(liveOwnerOid('Lanternfish Records'));
    expect(liveOwnerOid('x')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('the verdict', () => {
  it('needs two art tracks of one distributor, at least half of the videos read', () => {
    expect(judgeNetworkPages(pages([art(1), art(2), video(3)])).owner).toMatchObject({ name: 'Lanternfish Distribution', type: 'Music distributor', industry: 'Music' });
    expect(judgeNetworkPages(pages([art(1), video(2), video(3)])).owner).toBeNull();
    expect(judgeNetworkPages(pages([art(1), art(2), video(3), video(4), video(5)])).owner).toBeNull();
  });

  it('takes one art track on a "- Topic" or official artist channel', () => {
    expect(judgeNetworkPages(pages([art(1), video(2), video(3)], { title: 'Nova - Topic' })).owner?.name).toBe('Lanternfish Distribution');
    expect(judgeNetworkPages(pages([art(1), video(2), video(3)], { official_artist: true })).owner?.name).toBe('Lanternfish Distribution');
  });

  it('gives no verdict when art tracks name different distributors', () => {
    const judgement = judgeNetworkPages(pages([art(1), art(2), art(3, 'Other Records')], { title: 'Nova - Topic' }));
    expect(judgement.owner).toBeNull();
  });

  it('needs licensing rows naming one owner on at least three videos, none naming another', () => {
    const row = 'Example Music Group (on behalf of Tidewater Records); ASCAP';
    expect(judgeNetworkPages(pages([video(1, '', [row]), video(2, '', [row]), video(3, '', [row]), video(4)])).owner).toMatchObject({ name: 'Example Music Group', type: 'Music rights owner' });
    expect(judgeNetworkPages(pages([video(1, '', [row]), video(2, '', [row]), video(3)])).owner).toBeNull();
    expect(judgeNetworkPages(pages([video(1, '', [row]), video(2, '', [row]), video(3, '', [row]), video(4, '', ['Other Rights; BMI'])])).owner).toBeNull();
  });

  it('never says "not managed": without a signal it is no verdict, with a note and a hint', () => {
    const judgement = judgeNetworkPages(pages([video(1), video(2)]));
    expect(judgement).toMatchObject({ owner: null, note: expect.stringMatching(/^No public signal decides it/), hint: expect.any(String) });
    expect(judgement.signals).toEqual([expect.objectContaining({ id: 'no_public_signal', evidence: expect.stringContaining('its 2 newest videos') })]);
    const topic = judgeNetworkPages(pages([video(1)], { title: 'Nova - Topic' }));
    expect(topic).toMatchObject({ owner: null, note: expect.stringContaining('none of its videos read names its distributor') });
    const refused = judgeNetworkPages(pages([], { unread: [{ id: 'refused', evidence: 'The site refused the read', url: 'https://www.youtube.com/watch?v=x' }] }));
    expect(refused).toMatchObject({ owner: null, note: expect.stringContaining('could not be read'), hint: expect.stringContaining('TUBEKIT_COOKIES') });
    expect(refused.signals[0]!.id).toBe('refused');
    // Some pages read, some not: retrying can help, and the hint says so.
    const partly = judgeNetworkPages(pages([video(1), video(2)], { unread: [{ id: 'refused', evidence: 'The site refused the read', url: 'https://www.youtube.com/watch?v=x' }] }));
    expect(partly).toMatchObject({ owner: null, note: expect.stringMatching(/^No verdict: 1 of the channel's 3 video pages could not be read/) });
    expect(partly.hint).toMatch(/^Retry later \(refresh=1\)/);
    expect(partly.hint).not.toMatch(/does not help/);
  });
});

describe('a live check that got no verdict', () => {
  it('hands its signals, note and hint to the requests that waited for it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-claim-'));
    const db = openDatabase(path.join(dir, 'test.db'));
    try {
      const store = new SqliteStore(db);
      const token = await claimLiveCheck(store, 'UCaaaaaaaaaaaaaaaaaaaaaa', systemClock.now(), 60_000);
      const outcome = { verdict: false, signals: [{ id: 'no_public_signal', evidence: 'none', url: 'https://www.youtube.com/channel/x/about' }], note: 'No public signal decides it.', hint: 'Retrying does not help.' };
      await finishLiveCheck(store, 'UCaaaaaaaaaaaaaaaaaaaaaa', token, systemClock.now(), outcome);
      expect(await awaitLiveCheck(store, systemClock, 'UCaaaaaaaaaaaaaaaaaaaaaa', token)).toEqual(outcome);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
