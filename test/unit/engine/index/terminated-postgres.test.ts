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
import { recordTerminatedChannelsIn } from '../../../../src/engine/index/terminated/live-records.js';
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
