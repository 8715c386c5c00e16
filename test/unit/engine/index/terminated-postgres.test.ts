/**
 * The live terminated store on PostgreSQL answers as the one on SQLite: the same records written to
 * both (in batches, with channels recorded again and merged), then the same searches — keywords in
 * several scripts, with accents, phrases and words that only look alike, every sort both ways,
 * filters, pages deep into the results, similarity with one keyword and several — give the same
 * channels in the same order, with the same totals and figures; one channel by id too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTerminatedChannelsIn, type LiveTerminatedRecord } from '../../../../src/engine/index/terminated/live-records.js';
import type { LiveTerminatedRepository } from '../../../../src/engine/index/terminated/live-repository.js';
import { PostgresLiveTerminated } from '../../../../src/engine/index/terminated/postgres/postgres-live-terminated.js';
import { anyKeywordTsquery, documentOf, foldToken } from '../../../../src/engine/index/terminated/postgres/ts-text.js';
import type { SortField, TerminatedQuery } from '../../../../src/engine/index/terminated/reader.js';
import { parseKeyword, type SearchKeyword } from '../../../../src/engine/index/terminated/search-text.js';
import { SqliteLiveTerminated } from '../../../../src/engine/index/terminated/sqlite-live-terminated.js';
import { openDatabase, type Db } from '../../../../src/engine/store/database.js';
import { openFleetStore } from '../../../../src/engine/store/open-store.js';
import type { PostgresStore } from '../../../../src/engine/store/postgres-store.js';
import { parseStoreLocation } from '../../../../src/engine/store/store-location.js';
import { tempDataDir } from '../../../support/engines.js';
import { createTestDatabase } from '../../../support/postgres.js';
import { terminatedChannelId, terminatedRecords } from '../../../support/terminated-records.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const RECORDS = terminatedRecords(400, NOW);

const keywords = (q: string) => q.split(',').map(parseKeyword).filter((keyword): keyword is SearchKeyword => keyword !== null);
const query = (q: string, extra: Partial<TerminatedQuery> = {}): TerminatedQuery => ({ keywords: keywords(q), sort: 'date', direction: 'desc', offset: 0, limit: 25, ...extra });

/** Keywords that match, match differently by script or accent, match as phrases, or match nothing. */
const WORDS = [
  'cooking', 'COOKING', 'lucia', 'Lucía', 'jurgen', 'thao', 'cafe', 'café', 'one-pot', 'one pot', 'pot one', 'チャンネル', 'さくら', 'ドラマ',
  'иван', 'ИВАН', 'strasse', 'straße', 'sao paulo', 'nandu', 'naive', 'amour', "l'amour", 'the', '2024', 'x', 'é', 'e', 'kimchi', '김치', 'lofi beats',
  'cooking, gaming', 'music, lucia, チャンネル', 'zzz-nothing',
];
const SORTS: SortField[] = ['date', 'similarity', 'subs', 'views', 'videos', 'age', 'views_24h', 'subs_24h', 'views_48h'];

let dataDir: string;
let db: Db;
let pg: PostgresStore;
let sqlite: LiveTerminatedRepository;
let postgres: LiveTerminatedRepository;

beforeAll(async () => {
  dataDir = tempDataDir('tubekit-terminated-pg-');
  db = openDatabase(path.join(dataDir, 'tubekit.db'));
  const location = parseStoreLocation(await createTestDatabase());
  if (location.kind !== 'postgres') throw new Error('expected a postgres location');
  pg = (await openFleetStore(location, { migrations: 'apply' })).store;
  sqlite = new SqliteLiveTerminated(db, () => NOW);
  postgres = new PostgresLiveTerminated(pg, () => NOW);
  // In batches, each channel of the second batch recorded again with new figures (merged, and some moved to another day).
  const again = RECORDS.slice(0, 60).map((record, n) => ({
    ...record,
    channel_title: n % 2 ? record.channel_title : `${record.channel_title} renamed`,
    subscribers: n % 3 ? null : 5,
    terminated_at: n % 4 ? record.terminated_at : new Date(Date.parse(record.terminated_at) - 3 * 86_400_000).toISOString(),
    top_videos: [],
  }));
  for (const batch of [RECORDS.slice(0, 150), RECORDS.slice(150), again]) {
    await recordTerminatedChannelsIn(sqlite, batch);
    await recordTerminatedChannelsIn(postgres, batch);
  }
}, 60_000);

afterAll(async () => {
  await pg?.close();
  db?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A search's answer without the plan that found it (the stores find pages their own ways). */
async function answer(store: LiveTerminatedRepository, q: TerminatedQuery) {
  const { plan: _plan, ...result } = await store.search(q);
  return result;
}

describe('the live terminated store on PostgreSQL', () => {
  it('holds the same channels', async () => {
    expect(await postgres.count()).toBe(400);
    expect(await sqlite.count()).toBe(400);
    expect(await postgres.known([terminatedChannelId(3), terminatedChannelId(999)])).toEqual(new Set([terminatedChannelId(3)]));
  });

  it('matches the same channels for every keyword, newest first, with the same totals and fields', async () => {
    let matched = 0;
    for (const q of WORDS) {
      const expected = await answer(sqlite, query(q, { limit: 100 }));
      expect(await answer(postgres, query(q, { limit: 100 })), q).toEqual(expected);
      if (expected.total > 0) matched += 1;
    }
    // Most keywords find something: the comparison is not between two empty answers.
    expect(matched).toBeGreaterThan(WORDS.length - 6);
  });

  it('sorts, pages and filters alike, unknown figures last both ways', async () => {
    for (const q of ['cooking', 'the, cafe, иван', 'チャンネル']) {
      for (const sort of SORTS) {
        for (const direction of ['desc', 'asc'] as const) {
          for (const offset of [0, 20, 60]) {
            const search = query(q, { sort, direction, offset, limit: 20 });
            expect(await answer(postgres, search), `${q} ${sort}_${direction} +${offset}`).toEqual(await answer(sqlite, search));
          }
        }
      }
    }
    const filtered: Array<Partial<TerminatedQuery>> = [
      { languages: ['en', 'es'], monetized: true },
      { monetized: false, ranges: { subs: { min: 1000, max: 800_000 } }, sort: 'views' },
      { ranges: { views_24h: { min: 0 }, age: { max: 4000 } }, sort: 'views_24h', direction: 'asc' },
      { ranges: { avg_views: { min: 10 }, videos: { min: 5 }, views_48h: { max: 15_000 }, views: { min: 1 } }, sort: 'similarity' },
    ];
    for (const extra of filtered) {
      for (const q of ['cooking, lucia', 'the', 'x']) {
        const search = query(q, extra);
        expect(await answer(postgres, search), `${q} ${JSON.stringify(extra)}`).toEqual(await answer(sqlite, search));
      }
    }
  });

  it('keeps how many channels hold each word exact through inserts, merges and moves (one-word totals are read there)', async () => {
    const kept = await pg.all<{ word: string; channels: number }>('SELECT word, channels FROM live_terminated_words WHERE channels <> 0 ORDER BY word');
    const counted = await pg.all<{ word: string; channels: number }>(
      'SELECT word, count(*) AS channels FROM live_terminated, unnest(tsvector_to_array(document)) AS word GROUP BY word ORDER BY word',
    );
    expect(kept.length).toBeGreaterThan(20);
    expect(kept).toEqual(counted);
  });

  it('shows one channel by id alike, and none for an id it never recorded', async () => {
    for (const n of [0, 1, 59, 200, 399]) expect(await postgres.byId(terminatedChannelId(n))).toEqual(await sqlite.byId(terminatedChannelId(n)));
    expect(await postgres.byId(terminatedChannelId(1000))).toBeNull();
  });
});

describe('the search text of the PostgreSQL store', () => {
  it('folds case and Latin accents as FTS5 does, and keeps the name and the video titles apart', () => {
    expect(['Lucía', 'JÜRGEN', 'Thảo', 'Иван', 'チ'].map(foldToken)).toEqual(['lucia', 'jurgen', 'thao', 'иван', 'チ']);
    // The name's last word and the first video title's first word are not adjacent: no phrase spans them.
    expect(documentOf('Best one', ['pot pie'])).toBe("'best':1A 'one':2A 'pot':4B 'pie':5B");
    expect(anyKeywordTsquery(keywords('one-pot, café'))).toBe("(('one' <-> 'pot')) | ('cafe')");
  });
});

describe('the live terminated store on PostgreSQL, with words held by 1,000 channels or more', () => {
  // Enough channels that the common words get their bitmaps (several words' totals are counted there).
  // (Going back years, some first uploads would follow the termination: those are left unknown.)
  const uploadedBefore = (record: LiveTerminatedRecord) =>
    record.first_upload_date && record.first_upload_date > record.terminated_at.slice(0, 10) ? { ...record, first_upload_date: null } : record;
  const MANY = terminatedRecords(6_000, NOW, 11).map(uploadedBefore);
  // A word fewer hold, beside common ones in some names.
  const RARE = MANY.slice(0, 80).map((record, n) => ({ ...record, channel_title: n % 2 ? `Patagonia ${record.channel_title}` : 'patagonia' }));
  let manyDir: string;
  let manyDb: Db;
  let manyPg: PostgresStore;
  let lite: LiveTerminatedRepository;
  let big: LiveTerminatedRepository;

  beforeAll(async () => {
    manyDir = tempDataDir('tubekit-terminated-pg-many-');
    manyDb = openDatabase(path.join(manyDir, 'tubekit.db'));
    const location = parseStoreLocation(await createTestDatabase());
    if (location.kind !== 'postgres') throw new Error('expected a postgres location');
    manyPg = (await openFleetStore(location, { migrations: 'apply' })).store;
    lite = new SqliteLiveTerminated(manyDb, () => NOW);
    big = new PostgresLiveTerminated(manyPg, () => NOW);
    // Merged again: renamed (words gone and come), some moved to another day (a new key, the same slot), some lose their videos.
    const again = MANY.slice(2_000, 2_600).map((record, n) => ({
      ...record,
      channel_title: n % 2 ? record.channel_title : `${record.channel_title} gaming renamed`,
      terminated_at: n % 4 ? record.terminated_at : new Date(Date.parse(record.terminated_at) - 5 * 86_400_000).toISOString(),
      top_videos: n % 3 ? record.top_videos : [],
    })).map(uploadedBefore);
    for (const batch of [MANY.slice(0, 1_000), MANY.slice(1_000, 4_000), MANY.slice(4_000), again, RARE]) {
      await recordTerminatedChannelsIn(lite, batch);
      await recordTerminatedChannelsIn(big, batch);
    }
  }, 120_000);

  afterAll(async () => {
    await manyPg?.close();
    manyDb?.close();
    fs.rmSync(manyDir, { recursive: true, force: true });
  });

  // Bounds on decades' edges (counted on bits alone), bounds inside decades (their rows read), both bounds in one decade, below zero, ranges in several figures, fractions.
  const FILTERED: Array<Partial<TerminatedQuery>> = [
    {},
    { sort: 'subs', offset: 40 },
    { languages: ['en', 'es'], monetized: true, ranges: { subs: { min: 10_000 }, views_24h: { min: 100 } }, sort: 'views' },
    { monetized: false, ranges: { subs: { min: 15_000, max: 700_000 } } },
    { ranges: { subs: { min: 20_000, max: 30_000 } }, sort: 'subs', direction: 'asc' },
    { ranges: { views_24h: { min: -150, max: 99 } }, languages: ['ja'] },
    { ranges: { views_24h: { max: -1 }, views_48h: { min: 0 } } },
    { ranges: { subs: { min: 10_000 }, views: { max: 99_999_999 }, age: { min: 365 }, avg_views: { min: 1_000 }, videos: { min: 10, max: 99 } } },
    { ranges: { subs: { min: 12_345 }, views: { min: 1_000_001 }, views_48h: { max: 12_000 } }, monetized: true },
    { ranges: { subs: { min: 0 }, views_24h: { min: 1_000, max: 9_999 } }, languages: ['ru', 'xx'] },
    // Fractional bounds (the routes take whole numbers; the index itself answers any): a figure is whole.
    { ranges: { subs: { min: 9_999.5, max: 700_000.9 }, views_24h: { min: -150.5, max: 99.5 } } },
  ];

  it('counts several words alike (common words from their bits, rarer ones in the table), with and without filters', async () => {
    const bitmapped = await manyPg.all<{ word: string }>('SELECT word FROM live_terminated_words WHERE bitmapped ORDER BY word');
    expect(bitmapped.map((row) => row.word)).toEqual(expect.arrayContaining(['cooking', 'gaming', 'music', 'lucia']));
    expect(bitmapped.map((row) => row.word)).not.toContain('patagonia');
    expect(bitmapped.map((row) => row.word)).not.toContain('renamed');
    const searches = ['cooking', 'patagonia', 'cooking, gaming', 'cooking, gaming, music', 'music, lucia, cafe, the', 'cooking, patagonia', 'patagonia, zzz-nothing', 'gaming, zzz-nothing', 'renamed, cooking, cooking'];
    let matched = 0;
    for (const q of searches) {
      for (const extra of FILTERED) {
        const search = query(q, extra);
        const expected = await answer(lite, search);
        if (expected.total > 0) matched += 1;
        expect(await answer(big, search), `${q} ${JSON.stringify(extra)}`).toEqual(expected);
      }
    }
    // Not a comparison of empty answers: nearly every search finds channels.
    expect(matched).toBeGreaterThan(searches.length * FILTERED.length - 12);
  });

  it("keeps each common word's and each mark's bits exactly the slots of the channels holding it, through inserts, merges, moves and updates", async () => {
    const check = async () => {
      const expected = await manyPg.all<{ word: string; chunk: number; bits: string }>(
        `SELECT word, t.slot / 1024 AS chunk, bit_or(set_bit(B'0'::bit(1024), t.slot % 1024, 1))::text AS bits
         FROM live_terminated t,
           unnest(tsvector_to_array(t.document) || live_terminated_marks(t)) AS word
         WHERE word IN (SELECT word FROM live_terminated_words WHERE bitmapped) OR word LIKE '=%' GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      const kept = await manyPg.all<{ word: string; chunk: number; bits: string }>(
        'SELECT word, chunk, bits::text AS bits FROM live_terminated_word_bits WHERE bit_count(bits) > 0 ORDER BY 1, 2',
      );
      expect(expected.length).toBeGreaterThan(20);
      expect(kept).toEqual(expected);
      const slots = await manyPg.get<{ n: number; distinct: number; top: number }>('SELECT count(*) AS n, count(DISTINCT slot) AS distinct, max(slot) AS top FROM live_terminated');
      // Merges keep their slots: as many as channels.
      expect(slots).toEqual({ n: 6_000, distinct: 6_000, top: 6_000 });
    };
    await check();
    // An update in place (as copy-store's upsert makes one): the words moved, the bits follow.
    await manyPg.run("UPDATE live_terminated SET document = document || 'patagonia:30B'::tsvector WHERE idx % 3 = 0");
    await manyPg.run("UPDATE live_terminated SET document = 'lonely:1A'::tsvector, subs = subs * 7, language_code = NULL WHERE idx % 5 = 1");
    await check();
  });
});
