/**
 * `engine import terminated` speed: 100,000 lines into an empty live store, then 100,000 more into
 * the store they made, beside a dry run of the same file (the lines read and checked, nothing
 * written) as the baseline; the memory the import adds (it streams: a batch at a time, not the
 * file); and searches over the 200,000 channels the store then holds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../src/engine/engine.js';
import { importTerminated } from '../src/engine/features/terminated/import/import-terminated.js';
import type { TerminatedQuery } from '../src/engine/index/terminated/reader.js';
import { parseKeyword, type SearchKeyword } from '../src/engine/index/terminated/search-text.js';
import type { BenchRow } from './table.js';

const LINES = Number(process.env.BENCH_IMPORT_LINES ?? 100_000);
/** 64 topic words, 8 a channel (name and top videos): a word is in about one channel in nine, as common words of the sample world are. */
const WORDS = [
  'cooking', 'gaming', 'music', 'lofi', 'kitchen', 'travel', 'news', 'cats', 'garden', 'fitness', 'minecraft', 'asmr', 'bread', 'chess', 'piano', 'tokyo',
  'dogs', 'cars', 'makeup', 'science', 'history', 'football', 'anime', 'guitar', 'yoga', 'camping', 'fishing', 'crypto', 'coding', 'drawing', 'baking', 'vegan',
  'pranks', 'comedy', 'horror', 'movies', 'diy', 'woodwork', 'knitting', 'lego', 'trains', 'planes', 'space', 'robots', 'math', 'poetry', 'tarot', 'skincare',
  'sneakers', 'fashion', 'boxing', 'running', 'cycling', 'surfing', 'skiing', 'hiking', 'birds', 'reptiles', 'aquarium', 'coffee', 'tea', 'ramen', 'sushi', 'pizza',
];
const DAY_MS = 86_400_000;

/** `count` channels as a user's export would hold them, one JSON line each, ids from `first` (the same lines for the same arguments). */
export function* channelLines(first: number, count: number): Generator<string> {
  let state = first + 1;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
  for (let n = first; n < first + count; n++) {
    const day = Date.UTC(2026, 10, 1) - Math.floor(next() * 5 * 365) * DAY_MS;
    const known = next() < 0.7;
    yield JSON.stringify({
      channel_id: `UC${n.toString(36).padStart(22, '0')}`,
      channel_title: `${word()} ${word()} ${n % 1000}`,
      terminated_date: new Date(day + Math.floor(next() * DAY_MS)).toISOString(),
      subscriber_count: known ? Math.floor(next() * 1e6) : null,
      view_count: known ? Math.floor(next() * 1e8) : null,
      total_videos: known ? 1 + Math.floor(next() * 900) : null,
      primary_language: next() < 0.6 ? 'en' : 'es',
      monetized: known ? next() < 0.5 : null,
      first_upload_date: new Date(day - (30 + Math.floor(next() * 2000)) * DAY_MS).toISOString().slice(0, 10),
      view_increase_24h: known ? Math.floor(next() * 1e4) : null,
      recent_videos: [0, 1, 2].map((k) => ({ video_id: `${n.toString(36).padStart(9, '0')}_${k}`, title: `${word()} ${word()} part ${k}`, view_count: Math.floor(next() * 1e6) })),
    });
  }
}

/** A file of `count` channels (channelLines). */
function writeLines(file: string, first: number, count: number): void {
  const out = fs.openSync(file, 'w');
  let chunk = '';
  for (const line of channelLines(first, count)) {
    chunk += `${line}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}

/** JavaScript's own memory: RSS would also count the database pages SQLite maps in. */
const heapBytes = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};

async function timedImport(engine: Engine, file: string, dryRun: boolean): Promise<{ perSecond: number; heapGrowthMb: number }> {
  const start = heapBytes();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, heapBytes());
  }, 20);
  const started = performance.now();
  const summary = await importTerminated(engine, fs.createReadStream(file), { dryRun });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (summary.refused > 0 || summary.loaded !== LINES) throw new Error(`bench import: ${JSON.stringify({ ...summary, errors: summary.errors.slice(0, 3) })}`);
  return { perSecond: LINES / seconds, heapGrowthMb: (peak - start) / 1e6 };
}

const query = (q: string, extra: Partial<TerminatedQuery> = {}): TerminatedQuery => ({
  keywords: q.split(',').map(parseKeyword).filter((keyword): keyword is SearchKeyword => keyword !== null),
  sort: 'date',
  direction: 'desc',
  offset: 0,
  limit: 20,
  ...extra,
});

export async function terminatedImportRows(): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-import-'));
  const engine = Engine.open({ dataDir: path.join(dir, 'data'), jobRunner: { mode: 'none' } });
  try {
    engine.settings.set('platform', 'live');
    const [first, second] = [path.join(dir, 'first.jsonl'), path.join(dir, 'second.jsonl')];
    writeLines(first, 0, LINES);
    writeLines(second, LINES, LINES);
    const megabytes = fs.statSync(first).size / 1e6;
    const count = LINES.toLocaleString('en-US');
    const dry = await timedImport(engine, first, true);
    const empty = await timedImport(engine, first, false);
    const more = await timedImport(engine, second, false);
    const dryRow = { name: `--dry-run of the same ${count} lines (read and checked only)`, value: dry.perSecond };
    const rows: BenchRow[] = [
      { name: `terminated import: ${count} lines (${megabytes.toFixed(0)} MB) into an empty live store`, value: empty.perSecond, unit: 'records/s', baseline: dryRow },
      { name: `terminated import: ${count} more into a store of ${count}`, value: more.perSecond, unit: 'records/s', baseline: dryRow },
      // A batch of channels at a time, whatever the file's size.
      { name: `terminated import: memory added while loading ${count} lines (peak heap growth)`, value: Math.max(empty.heapGrowthMb, more.heapGrowthMb), unit: 'MB' },
    ];
    // The store the two files made, searched as the live engine searches it.
    const reader = await engine.terminated();
    const total = (2 * LINES).toLocaleString('en-US');
    // The budget of the sample world's mix; several keywords by similarity score every match, as
    // beyond the mix there.
    for (const [label, q, budget] of [
      ['common keyword, newest first', query('cooking'), '≤ 50 ms'],
      ['common keyword, subs_desc', query('cooking', { sort: 'subs' }), '≤ 50 ms'],
      ['common keyword, views_24h_asc', query('cooking', { sort: 'views_24h', direction: 'asc' }), '≤ 50 ms'],
      ['a rare keyword with filters', query('chess ramen', { languages: ['es'], ranges: { subs: { min: 1000 } }, sort: 'views' }), '≤ 50 ms'],
      ['one keyword, similarity_desc', query('bread', { sort: 'similarity' }), '≤ 50 ms'],
      ['two keywords, similarity_desc (beyond the mix)', query('cooking, bread', { sort: 'similarity' }), undefined],
    ] as const) {
      const times: number[] = [];
      for (let run = 0; run < 23; run++) {
        const started = performance.now();
        const result = await reader.search(q);
        if (result.total === 0) throw new Error(`bench query "${label}" matched nothing`);
        if (run >= 3) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      rows.push({ name: `terminated live store (${total} imported): ${label} p50`, value: times[Math.floor(times.length / 2)]!, unit: 'ms', budget });
    }
    return rows;
  } finally {
    engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
