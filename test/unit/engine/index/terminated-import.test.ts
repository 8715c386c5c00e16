/**
 * `engine import terminated` below the CLI: lines read one at a time from a stream, each checked
 * on its own (the spec's fields, line numbers in every refusal), loaded in committed batches while
 * the rest of the input is still coming, and a dry run that writes nothing.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/engine/clock.js';
import { Engine } from '../../../../src/engine/engine.js';
import { checkLine } from '../../../../src/engine/features/terminated/import/import-line.js';
import { BATCH, importTerminated, MAX_LINE_BYTES } from '../../../../src/engine/features/terminated/import/import-terminated.js';
import { readLines, type ReadLine } from '../../../../src/engine/features/terminated/import/line-reader.js';
import { liveTerminatedTablesExist } from '../../../../src/engine/index/terminated/live-schema.js';
import { tempDataDir } from '../../../support/engines.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const id = (n: number) => `UC${String(n).padStart(22, 'i')}`;
const line = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ channel_id: id(n), channel_title: `Imported channel ${n}`, terminated_date: '2026-10-01', ...extra });

async function collect(input: AsyncIterable<Buffer | string>, max = 1000): Promise<ReadLine[]> {
  const lines: ReadLine[] = [];
  for await (const read of readLines(input, max)) lines.push(read);
  return lines;
}

describe('reading lines', () => {
  it('splits chunks at newlines wherever they fall, without the BOM, CR or a last empty line', async () => {
    const text = '\ufeffone\r\ntwo\n\nthré\né\n';
    const bytes = Buffer.from(text, 'utf8');
    // Every split point, including inside the two bytes of "é".
    for (let at = 0; at <= bytes.length; at++) {
      expect(await collect([bytes.subarray(0, at), bytes.subarray(at)])).toEqual([
        { number: 1, text: 'one' },
        { number: 2, text: 'two' },
        { number: 3, text: '' },
        { number: 4, text: 'thré' },
        { number: 5, text: 'é' },
      ]);
    }
    expect(await collect(['no newline at the end'])).toEqual([{ number: 1, text: 'no newline at the end' }]);
  });

  it('refuses a line past the limit and one that is not UTF-8, and goes on', async () => {
    const long = 'x'.repeat(300);
    const lines = await collect([`${long}`, `${long}`, `${long}\nok\n`, Buffer.from([0xff, 0xfe, 0x0a]), 'last'], 500);
    expect(lines).toEqual([
      { number: 1, problem: 'longer than 500 bytes (is the file JSON lines, one channel a line?)' },
      { number: 2, text: 'ok' },
      { number: 3, problem: 'not UTF-8 text' },
      { number: 4, text: 'last' },
    ]);
  });

  it('yields each line as soon as it is complete: the input is never read whole', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let ended = false;
    async function* input() {
      yield 'first\nsec';
      await gate;
      yield 'ond\n';
      ended = true;
    }
    const lines = readLines(input(), 1000);
    expect(await lines.next()).toEqual({ done: false, value: { number: 1, text: 'first' } });
    expect(ended).toBe(false);
    release();
    expect(await lines.next()).toEqual({ done: false, value: { number: 2, text: 'second' } });
  });
});

describe('checking a line', () => {
  it('takes the spec\'s fields (a saved search answer\'s channel as it is) and refuses anything else', () => {
    const saved = {
      channel_id: id(1), channel_title: ' Saved ', subscriber_count: 10, view_count: 100, avg_views_per_video: 7, total_videos: 12,
      primary_language: 'Portuguese', monetized: false, is_low_quality: true, thumbnail_url: 'https://yt3.example/a.jpg', first_upload_date: '2020-01-01',
      terminated_date: '2026-11-01', terminated_days_ago: 20, view_increase_24h: 5, sub_increase_24h: -1, view_increase_48h: 9, sub_increase_48h: null,
      similarity_score: 80, recent_videos: [{ video_id: 'abcdefghijk', title: 'A short', view_count: 3, thumbnail_url: 'https://x', url: 'https://www.youtube.com/shorts/abcdefghijk' }],
    };
    const checked = checkLine(JSON.stringify(saved), NOW);
    expect(checked).toEqual({
      entry: {
        channel_id: id(1), title: 'Saved', terminated_ms: Date.UTC(2026, 10, 1), language_code: 'pt', content_type: null, low_quality: true, monetized: false,
        first_upload_day: Date.UTC(2020, 0, 1) / 86_400_000, subscribers: 10, total_views: 100, video_count: 12, avg_views: 7,
        views_24h: 5, subs_24h: -1, views_48h: 9, subs_48h: null, thumbnail_url: 'https://yt3.example/a.jpg',
        top_videos: [{ video_id: 'abcdefghijk', title: 'A short', views: 3, kind: 'short' }],
      },
    });
    const refused: Array<[string, string]> = [
      ['{', 'not JSON ('],
      ['[1]', 'not a JSON object'],
      [JSON.stringify({ channel_title: 'x', terminated_date: '2026-01-01' }), 'channel_id: is required'],
      [line(1, { subscribers: 5 }), 'not a field of a terminated channel: subscribers'],
      [line(1, { terminated_date: '01/10/2026' }), 'terminated_date: must be an ISO 8601 date'],
      [line(1, { terminated_date: '2026-02-30' }), 'terminated_date: must be an ISO 8601 date'],
      [line(1, { terminated_date: '2026-11-23' }), 'terminated_date: is in the future (after 2026-11-21)'],
      [line(1, { first_upload_date: '2026-10-02' }), 'first_upload_date: is after the termination date'],
      [line(1, { subscriber_count: '12k' }), 'subscriber_count: must be a whole number or null'],
      [line(1, { view_count: -3 }), 'view_count: must not be negative'],
      [line(1, { primary_language: 'Klingon' }), 'primary_language: "Klingon" is not a language'],
      [line(1, { thumbnail_url: 'ftp://x/y' }), 'thumbnail_url: must be an http(s) URL'],
      [line(1, { recent_videos: [{ video_id: 'x', title: 't', view_count: 1 }] }), 'recent_videos.0.video_id: must be an 11-character video id'],
      [line(1, { channel_title: '   ' }), 'channel_title: must not be empty'],
    ];
    for (const [text, error] of refused) {
      const result = checkLine(text, NOW);
      expect('error' in result && result.error, text).toContain(error);
    }
  });
});

describe('importing into a live data dir', () => {
  let dataDir: string;
  let engine: Engine;
  beforeEach(() => {
    dataDir = tempDataDir();
    engine = Engine.open({ dataDir, clock: new ManualClock(NOW), jobRunner: { mode: 'none' } });
    engine.settings.set('platform', 'live');
  });
  afterEach(() => {
    engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('commits each batch while the rest of the input is still coming', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* input() {
      for (let n = 0; n < BATCH + 5; n++) yield `${line(n)}\n`;
      await gate;
      yield `${line(BATCH + 5)}\n`;
    }
    const running = importTerminated(engine, input());
    const other = new Database(engine.db.name, { readonly: true });
    const stored = () => other.prepare('SELECT count(*) FROM live_terminated').pluck().get();
    await expect.poll(stored, { timeout: 10_000 }).toBe(BATCH);
    release();
    expect(await running).toMatchObject({ loaded: BATCH + 6, refused: 0 });
    expect(stored()).toBe(BATCH + 6);
    other.close();
  });

  it('loads the good lines, refuses the bad with their numbers, and counts a channel met again as updated', async () => {
    const refusals: Array<{ line: number; error: string }> = [];
    const text = [line(1), 'nonsense', '', line(2, { terminated_date: 'soon' }), line(3), line(1, { subscriber_count: 40 })].join('\n');
    const summary = await importTerminated(engine, [text], { onRefused: (refused) => refusals.push(refused) });
    expect(summary).toEqual({
      dry_run: false, lines: 5, loaded: 2, updated: 1, refused: 2,
      errors: [
        { line: 2, error: expect.stringContaining('not JSON') },
        { line: 4, error: expect.stringContaining('terminated_date: must be an ISO 8601 date') },
      ],
    });
    expect(refusals).toEqual(summary.errors);
    const terminated = await engine.liveTerminatedStore();
    expect(await terminated.count()).toBe(2);
    expect((await terminated.byId(id(1)))!.subscribers).toBe(40);
    expect(await terminated.byId(id(2))).toBeNull();
    // The same file again changes nothing but the counts.
    expect(await importTerminated(engine, [text])).toMatchObject({ loaded: 0, updated: 3, refused: 2 });
    expect(await terminated.count()).toBe(2);
  });

  it('changes nothing on a dry run, not even the store\'s tables, and counts as the real run would', async () => {
    const text = [line(1), line(2), line(1), 'x'].join('\n');
    expect(await importTerminated(engine, [text], { dryRun: true })).toMatchObject({ dry_run: true, lines: 4, loaded: 2, updated: 1, refused: 1 });
    expect(liveTerminatedTablesExist(engine.db)).toBe(false);
    expect(await importTerminated(engine, [line(1)])).toMatchObject({ loaded: 1 });
    expect(await importTerminated(engine, [text], { dryRun: true })).toMatchObject({ loaded: 1, updated: 2, refused: 1 });
    expect(await (await engine.liveTerminatedStore()).count()).toBe(1);
  });

  it('refuses a line past the limit without holding it', async () => {
    const huge = `{"channel_title":"${'x'.repeat(MAX_LINE_BYTES)}"}`;
    const summary = await importTerminated(engine, [huge.slice(0, 100_000), huge.slice(100_000), `\n${line(1)}\n`]);
    expect(summary).toMatchObject({ lines: 2, loaded: 1, refused: 1, errors: [{ line: 1, error: expect.stringContaining('longer than 1 MB') }] });
  });

  it('is refused on a sample data dir, naming the platform, before reading anything', async () => {
    engine.settings.set('platform', 'sample');
    let read = false;
    async function* input() {
      read = true;
      yield line(1);
    }
    await expect(importTerminated(engine, input())).rejects.toMatchObject({ status: 400, message: expect.stringContaining('uses the sample platform') });
    expect(read).toBe(false);
  });
});
