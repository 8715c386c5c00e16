/**
 * Terminated channels of the sample world: generation (deterministic, its own parameter, newest
 * first), full-text matching (accents, non-Latin scripts, several keywords) against an independent
 * oracle, both search plans giving the same pages, and query plans that use the indexes.
 */
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { SampleWorld } from '../../../src/engine/platform/sample/index.js';
import { dayNumber } from '../../../src/engine/dates.js';
import { DEFAULT_WORLD_TERMINATED } from '../../../src/engine/platform/sample/generate.js';
import type { TerminatedQuery } from '../../../src/engine/index/terminated/reader.js';
import { parseKeyword, type SearchKeyword } from '../../../src/engine/index/terminated/search-text.js';

const REF = '2026-11-21';

function world(terminated: number, seed = 'terminated-test', channels = 50): { world: SampleWorld; db: Database.Database } {
  const db = new Database(':memory:');
  return { world: SampleWorld.ensure(db, { seed, channels, terminated, referenceDate: REF }), db };
}

const keywords = (q: string) => q.split(',').map(parseKeyword).filter((keyword): keyword is SearchKeyword => keyword !== null);
const query = (q: string, extra: Partial<TerminatedQuery> = {}): TerminatedQuery => ({
  keywords: keywords(q),
  sort: 'date',
  direction: 'desc',
  offset: 0,
  limit: 50,
  ...extra,
});

interface StoredRow {
  idx: number;
  title: string;
  top_videos: string;
  terminated_day: number;
  first_upload_day: number;
}

/** Case- and accent-folded words: an oracle written without the full-text index. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
/** Words, with each character of unspaced scripts (Japanese, Chinese, Korean) a word of its own. */
const wordsOf = (text: string) =>
  fold(text)
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/gu, ' $& ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

function oracleMatches(db: Database.Database, q: string): Set<number> {
  const wanted = q.split(',').map((keyword) => wordsOf(keyword)).filter((words) => words.length > 0);
  const matches = new Set<number>();
  for (const row of db.prepare('SELECT idx, title, top_videos FROM world_terminated').all() as StoredRow[]) {
    const text = new Set([...wordsOf(row.title), ...(JSON.parse(row.top_videos) as [string][]).flatMap(([title]) => wordsOf(title))]);
    if (wanted.some((words) => words.every((word) => text.has(word)))) matches.add(row.idx);
  }
  return matches;
}

function allIds(w: SampleWorld, q: TerminatedQuery): string[] {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 50) {
    const page = w.terminated.search({ ...q, offset, limit: 50 }).channels.map((channel) => channel.channel_id);
    ids.push(...page);
    if (page.length < 50) return ids;
  }
}

describe('terminated channels: generation', () => {
  it('is a world parameter of its own, deterministic, newest termination first', () => {
    const a = world(1500);
    const b = world(1500);
    const rows = (db: Database.Database) => db.prepare('SELECT * FROM world_terminated JOIN world_terminated_facts USING (idx) ORDER BY idx').all();
    expect(rows(a.db)).toEqual(rows(b.db));
    expect(a.world.info()).toMatchObject({ channel_count: 50, terminated_count: 1500 });
    const stored = a.db.prepare('SELECT * FROM world_terminated ORDER BY idx').all() as StoredRow[];
    for (let i = 1; i < stored.length; i++) expect(stored[i]!.terminated_day).toBeLessThanOrEqual(stored[i - 1]!.terminated_day);
    expect(stored[0]!.terminated_day).toBeLessThanOrEqual(dayNumber(REF));
    for (const row of stored) expect(row.first_upload_day).toBeLessThan(row.terminated_day);
    // The live channels do not depend on the terminated ones.
    const live = (db: Database.Database) => db.prepare('SELECT * FROM world_channels ORDER BY idx').all();
    expect(live(world(10).db)).toEqual(live(a.db));
  });

  it('regenerates when only the terminated count changes', () => {
    const db = new Database(':memory:');
    SampleWorld.ensure(db, { seed: 's', channels: 20, terminated: 100, referenceDate: REF });
    const again = SampleWorld.ensure(db, { seed: 's', channels: 20, terminated: 300, referenceDate: REF });
    expect(again.info().terminated_count).toBe(300);
    expect(db.prepare('SELECT COUNT(*) FROM world_terminated').pluck().get()).toBe(300);
  });

  it('gives every channel the fields of the spec, with consistent numbers', () => {
    const { world: w } = world(2000);
    const channels = w.terminated.search(query('the, a, of, in, and, to, for, my, with, shorts, de, en', { limit: 50 })).channels;
    expect(channels.length).toBe(50);
    for (const channel of channels) {
      expect(channel.channel_id).toMatch(/^UC[\w-]{22}$/);
      expect(w.channelById(channel.channel_id)).toBeNull(); // terminated: not a live channel
      expect(channel.avg_views_per_video).toBe(Math.floor(channel.total_views / channel.video_count));
      expect(channel.top_videos.length).toBe(Math.min(3, channel.video_count));
      const views = channel.top_videos.map((video) => video.views);
      expect(views).toEqual([...views].sort((x, y) => y - x));
      expect(dayNumber(channel.terminated_date) - dayNumber(channel.first_upload_date)).toBe(channel.age_days);
      expect(dayNumber(REF) - dayNumber(channel.terminated_date)).toBe(channel.terminated_days_ago);
      if (channel.views_48h !== null) expect(channel.views_48h).toBeGreaterThanOrEqual(channel.views_24h!);
      if (channel.views_24h === null) expect(channel.views_48h).toBeNull();
      if (channel.monetized) expect(channel.subscribers).toBeGreaterThanOrEqual(1000);
    }
  });

  it('counts terminated_days_ago from the world\'s current day, which moves when the world advances', () => {
    const { world: w } = world(200);
    const before = w.terminated.search(query('the, a, of, de', { limit: 5 })).channels;
    w.advance(3 * 86_400_000 + 3_600_000);
    const after = w.terminated.search(query('the, a, of, de', { limit: 5 })).channels;
    expect(after.map((channel) => channel.channel_id)).toEqual(before.map((channel) => channel.channel_id));
    after.forEach((channel, index) => expect(channel.terminated_days_ago).toBe(before[index]!.terminated_days_ago + 3));
  });

  it(`lets everyday keywords find channels in the default world (${DEFAULT_WORLD_TERMINATED} terminated channels)`, () => {
    const db = new Database(':memory:');
    const w = SampleWorld.ensure(db, { seed: 1, channels: 50, referenceDate: REF });
    for (const word of ['cooking', 'gaming', 'music', 'kitchen', 'travel', 'cats', 'lofi', 'news']) {
      expect(w.terminated.search(query(word)).total, word).toBeGreaterThan(5);
    }
    const titles = db.prepare('SELECT title FROM world_terminated').pluck().all() as string[];
    expect(titles.some((title) => /[\u0300-\u036f]/.test(title.normalize('NFD')))).toBe(true); // accented
    expect(titles.some((title) => /[\u3040-\u30ff\uac00-\ud7af\u0400-\u04ff\u0600-\u06ff\u0900-\u097f]/.test(title))).toBe(true); // non-Latin
  });
});

describe('terminated channels: matching', () => {
  let w: SampleWorld;
  let db: Database.Database;
  beforeAll(() => {
    ({ world: w, db } = world(4000));
  });

  it('matches channel names and top video titles exactly as an independent oracle does', () => {
    for (const q of ['cooking', 'gaming, music', 'Cozy Cooking', 'lofi, kitchen, cats', 'tokyo', 'zzzz-nothing']) {
      const expected = oracleMatches(db, q);
      const result = w.terminated.search(query(q));
      expect(result.total, q).toBe(expected.size);
      const found = allIds(w, query(q));
      expect(found.length, q).toBe(expected.size);
      expect(new Set(found).size).toBe(found.length);
    }
  });

  it('folds case and accents: "lucia" finds "Lucía" and the other way round', () => {
    const plain = allIds(w, query('lucia'));
    expect(plain.length).toBeGreaterThan(0);
    expect(allIds(w, query('LUCÍA'))).toEqual(plain);
    const titles = w.terminated.search(query('lucia')).channels.map((channel) => [channel.title, ...channel.top_videos.map((video) => video.title)].join(' '));
    for (const text of titles) expect(fold(text)).toContain('lucia');
  });

  it('finds words of unspaced scripts anywhere in a name, and words of other scripts', () => {
    const names = db.prepare('SELECT title FROM world_terminated').pluck().all() as string[];
    const japanese = w.terminated.search(query('チャンネル'));
    expect(japanese.total).toBe(names.filter((name) => name.includes('チャンネル')).length + videoTitleHits('チャンネル'));
    expect(japanese.channels.some((channel) => /.+チャンネル/.test(channel.title))).toBe(true); // glued to a name
    const russian = w.terminated.search(query('Иван'));
    expect(russian.total).toBeGreaterThan(0);
    for (const channel of russian.channels) expect(channel.title).toContain('Иван');

    function videoTitleHits(word: string): number {
      return (db.prepare('SELECT title, top_videos FROM world_terminated').all() as StoredRow[]).filter(
        (row) => !row.title.includes(word) && (JSON.parse(row.top_videos) as [string][]).some(([title]) => title.includes(word)),
      ).length;
    }
  });

  it('scores similarity 0–100 by where each keyword is found', () => {
    const exact = w.terminated.search(query('cooking', { sort: 'similarity' })).channels[0]!;
    expect(exact.similarity).toBeGreaterThan(70);
    for (const channel of w.terminated.search(query('cooking', { limit: 50 })).channels) {
      const inName = fold(channel.title).split(/[^\p{L}\p{N}]+/u).includes('cooking');
      const words = channel.title.split(/\s+/).length;
      expect(channel.similarity).toBe(inName ? Math.round(70 + 30 * Math.min(1, 1 / words)) : 40);
    }
    // One keyword of two: at most half.
    const half = w.terminated.search(query('cooking, zzzz-nothing')).channels;
    for (const channel of half) expect(channel.similarity).toBeLessThanOrEqual(50);
  });
});

describe('terminated channels: plans', () => {
  let w: SampleWorld;
  beforeAll(() => {
    ({ world: w } = world(12_000, 'plans'));
  });

  it('walks a sort index when a keyword matches a large share of channels, with the same pages as keyword first', () => {
    // "shorts" is in about half the channels: probing a few is cheapest; "the" in a quarter: a match set.
    expect(w.terminated.search(query('shorts', { sort: 'subs', limit: 10 })).plan).toBe('sort-index-probe');
    expect(w.terminated.search(query('the', { sort: 'views', direction: 'asc' })).plan).toBe('sort-index-match-set');
    for (const sort of ['subs', 'views', 'videos', 'age', 'views_24h', 'subs_24h', 'views_48h'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const extra of [{ limit: 20 }, { offset: 40, limit: 20 }, { offset: 5980, limit: 50 }, { monetized: true, ranges: { views: { min: 5000 } } }]) {
          const q = query('shorts', { sort, direction, ...extra });
          const joined = w.terminated.search(q, { plan: 'keyword-first' });
          expect(joined.plan).toBe('keyword-first');
          for (const plan of ['sort-index-probe', 'sort-index-match-set'] as const) {
            const walked = w.terminated.search(q, { plan });
            expect(walked.plan).toBe(plan);
            expect(walked.channels.map((channel) => channel.channel_id), `${plan} ${sort}_${direction} ${JSON.stringify(extra)}`).toEqual(
              joined.channels.map((channel) => channel.channel_id),
            );
            expect(walked.total).toBe(joined.total);
          }
        }
      }
    }
  });

  it('reads one keyword by similarity tier by tier from the index, with the same pages as keyword first', () => {
    expect(w.terminated.search(query('gaming', { sort: 'similarity' })).plan).toBe('similarity-tiers');
    for (const keyword of ['gaming', 'cozy cooking', 'the', 'チャンネル']) {
      for (const direction of ['asc', 'desc'] as const) {
        for (const page of [{ offset: 0, limit: 20 }, { offset: 37, limit: 50 }, { offset: 950, limit: 50 }]) {
          const q = query(keyword, { sort: 'similarity', direction, ...page });
          const tiers = w.terminated.search(q, { plan: 'similarity-tiers' });
          const joined = w.terminated.search(q, { plan: 'keyword-first' });
          expect(tiers.plan).toBe('similarity-tiers');
          const label = `${keyword} ${direction} ${page.offset}`;
          expect(tiers.channels.map((channel) => channel.channel_id), label).toEqual(joined.channels.map((channel) => channel.channel_id));
          expect(tiers.channels.map((channel) => channel.similarity), label).toEqual(joined.channels.map((channel) => channel.similarity));
          expect(tiers.total).toBe(joined.total);
        }
      }
    }
    // A word of the index's own (name lengths) is never found.
    expect(w.terminated.search(query('namelen2')).total).toBe(0);
  });

  it('joins the matches when a keyword is rare, or when filters read the facts anyway', () => {
    expect(w.terminated.search(query('tokyo', { sort: 'subs' })).plan).toBe('keyword-first');
    expect(w.terminated.search(query('shorts', { sort: 'subs', monetized: true })).plan).toBe('keyword-first');
  });

  it('uses the full-text index, the primary key and the sort indexes, never a scan of the facts', () => {
    const filtered = query('cooking, gaming', { sort: 'views', monetized: true, languages: ['en'], ranges: { subs: { min: 1000, max: 10_000_000 }, views_24h: { min: 1 } } });
    const nullable = query('cooking', { sort: 'views_24h', direction: 'asc' });
    for (const q of [query('cooking'), query('cooking', { sort: 'subs' }), query('cooking', { sort: 'similarity' }), filtered, nullable]) {
      const plan = w.terminated.explain(q);
      for (const steps of [plan.keywordFirst, plan.keywordFirstWithTotal, plan.count]) {
        expect(steps.join('\n')).toMatch(/SCAN (s|world_terminated_search) VIRTUAL TABLE INDEX \d+:M/);
        expect(steps.join('\n')).not.toMatch(/SCAN f\b(?! VIRTUAL)/);
      }
      if (q !== query('cooking') && plan.keywordFirst.length > 1) expect(plan.keywordFirst.join('\n')).toMatch(/SEARCH f USING INTEGER PRIMARY KEY/);
      if (q.sort !== 'date' && q.sort !== 'similarity') {
        for (const walk of plan.sortWalks!) {
          expect(walk.join('\n')).toMatch(new RegExp(`(SCAN|SEARCH) f USING (COVERING )?INDEX world_terminated_facts_${q.sort}\\b`));
          expect(walk.join('\n')).not.toMatch(/TEMP B-TREE/);
        }
      }
    }
    // Newest first is the index's own order: no sorting at all.
    expect(w.terminated.explain(query('cooking')).keywordFirst.join('\n')).not.toMatch(/TEMP B-TREE/);
    expect(w.terminated.explain(query('cooking', { direction: 'asc' })).keywordFirst.join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
