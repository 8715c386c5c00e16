/**
 * The live platform against a made-up site on 127.0.0.1 (bench/live-site-server.ts, a child
 * process), and the live index at a million snapshots:
 *  - a refresh sweep of 1,000 watched channels at a pacing limit of 100 requests a second (the
 *    limit is TUBEKIT_PLATFORM_RATE, settable; the bench sets it): requests a second against the
 *    limit, channels a second, and the peak RSS over the sweep against the RSS after its first
 *    100 channels (memory stays flat however many channels a sweep reads);
 *  - `process-channel` end to end (submit, the job's reads, completed) on the fixture;
 *  - a live index of 100,000 known channels and 1,000,000 snapshots: a folder's 30 channels with
 *    their deltas (p50), and an alert cycle over every known channel (12 alerts, every type);
 *  - the same folder on a fleet's PostgreSQL (a server started for the run in a temporary
 *    directory, test/support/postgres-server.ts) holding the same index, beside SQLite's figure.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AlertFilters } from '../src/core/schemas/alerts.js';
import { ManualClock } from '../src/engine/clock.js';
import { Engine } from '../src/engine/engine.js';
import { LocalService } from '../src/engine/local-service.js';
import { openEngine } from '../src/engine/open-engine.js';
import { parseStoreLocation } from '../src/engine/store/store-location.js';
import { startPostgres } from '../test/support/postgres-server.js';
import { benchChannelId } from './live-bench-ids.js';
import { median, timeMedian, type BenchRow } from './table.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CHANNELS = 1_000;
const PACING = 100;

/** The made-up site in a child process; resolves once it listens. */
async function startSite(channels: number): Promise<{ origin: string; stop(): void }> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'live-site-server.js');
  const child = spawn(process.execPath, [script, String(channels)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const origin = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the bench site exited (${code}) before it listened`)));
  });
  lines.close();
  return { origin, stop: () => child.stdin!.end() };
}

/** A live engine on a fresh data dir whose platform reaches `origin` at the bench's pacing limit. */
export async function liveEngine(origin: string, clock: ManualClock): Promise<{ engine: Engine; close(): void }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-live-'));
  const engine = Engine.open({ dataDir, clock, jobRunner: { mode: 'in-process' } });
  engine.settings.set('platform', 'live');
  const saved = { origin: process.env.TUBEKIT_PLATFORM_ORIGIN, rate: process.env.TUBEKIT_PLATFORM_RATE };
  process.env.TUBEKIT_PLATFORM_ORIGIN = origin;
  process.env.TUBEKIT_PLATFORM_RATE = String(PACING);
  await engine.platform();
  for (const [name, value] of [['TUBEKIT_PLATFORM_ORIGIN', saved.origin], ['TUBEKIT_PLATFORM_RATE', saved.rate]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return {
    engine,
    close() {
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Saves the channels in folders of 30 (rows written directly: the bench measures the sweep, not 1,000 saves). */
async function watchChannels(engine: Engine, channelIds: string[]): Promise<void> {
  const user = await engine.authenticate((await engine.identity.createUserWithKey('ultimate', [])).key);
  const save = engine.db.prepare('INSERT INTO saved_channels (folder_id, user_id, channel_id, saved_at, seq) VALUES (?, ?, ?, ?, ?)');
  for (let at = 0; at < channelIds.length; at += 30) {
    const folder = await engine.handle('folders.create', { name: `Watched ${at / 30}` }, user);
    channelIds.slice(at, at + 30).forEach((channelId, seq) => save.run(folder.folder.id, user.userId, channelId, engine.clock.now(), seq));
  }
}

async function sweepRows(origin: string): Promise<BenchRow[]> {
  const clock = new ManualClock(Date.now());
  const { engine, close } = await liveEngine(origin, clock);
  try {
    await watchChannels(engine, Array.from({ length: CHANNELS }, (_, n) => benchChannelId(n)));
    // The first sweep also reads each upload's watch page (collabs); the steady one only the channel and its tab.
    await engine.refresh({ limit: CHANNELS });
    clock.advance(6 * HOUR);
    let early = 0;
    let peak = 0;
    let reads = 0;
    const started = performance.now();
    const report = await engine.refresh({
      limit: CHANNELS,
      onRead: () => {
        reads += 1;
        const rss = process.memoryUsage().rss;
        peak = Math.max(peak, rss);
        if (reads === 100) early = peak;
      },
    });
    const seconds = (performance.now() - started) / 1000;
    if (report.read.length !== CHANNELS || report.read.some((read) => read.state !== 'active')) throw new Error(`the steady sweep read ${report.read.length} channels`);
    // Each channel: its page, its about panel, its Videos tab (the page read serves the tab's parameters).
    const requests = report.read.length * 3;
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return [
      {
        name: `live refresh sweep, ${CHANNELS} watched channels: requests a second`,
        value: requests / seconds,
        unit: 'req/s',
        baseline: { name: 'pacing limit', value: PACING },
        budget: '≥ 0.9×',
      },
      { name: `live refresh sweep, ${CHANNELS} watched channels: channels read a second`, value: report.read.length / seconds, unit: 'ch/s' },
      {
        name: `live refresh sweep, ${CHANNELS} watched channels: peak RSS`,
        value: mb(peak),
        unit: 'MB',
        baseline: { name: 'peak RSS after 100 channels', value: mb(early) },
        budget: '≤ 1.25×',
      },
    ];
  } finally {
    close();
  }
}

async function processChannelRows(origin: string): Promise<BenchRow[]> {
  const clock = new ManualClock(Date.now());
  const { engine, close } = await liveEngine(origin, clock);
  try {
    const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
    let next = 0;
    const endToEnd = await timeMedian(20, async () => {
      const job = await service.call('channels.process', { channel: `@bench${CHANNELS - 1 - next++}`, type: 'longform' });
      const done = await service.call('channels.processStatus', { job_id: job.job_id, wait_seconds: 30 });
      if (done.status !== 'completed') throw new Error(`process-channel ended ${done.status}: ${done.error}`);
    });
    return [{ name: 'live process-channel end to end on the fixture (submit → completed, p50)', value: endToEnd, unit: 'ms', budget: `about 7 requests at ${PACING}/s` }];
  } finally {
    close();
  }
}

/** 100,000 known channels, 10 snapshots each (the last 30 hours every 6, and around 29 days back), 5 uploads each. */
export function millionSnapshots(engine: Engine, now: number): void {
  const db = engine.db;
  const channel = db.prepare(
    `INSERT INTO live_channels (channel_id, handle, title, description, language, language_code, country, category, content_type,
       subscribers, total_views, video_count, created_at, thumbnail_url, first_read_ms, last_read_ms, collab_scanned, last_long_ms, last_short_ms)
     VALUES (?, ?, ?, '', ?, ?, 'US', NULL, ?, ?, ?, 50, ?, '', ?, ?, 0, ?, ?)`,
  );
  const snapshot = db.prepare('INSERT INTO live_snapshots (channel_idx, at_ms, subscribers, views, videos) VALUES (?, ?, ?, ?, 50)');
  const video = db.prepare(
    'INSERT INTO live_videos (video_id, channel_idx, kind, title, views, duration_seconds, published_ms, published_exact, first_seen_ms, read_ms, members_read) VALUES (?, ?, ?, ?, ?, 600, ?, 1, ?, ?, 1)',
  );
  const offsets = [0, 6, 12, 18, 24, 30].map((hours) => hours * HOUR).concat([28, 29, 30, 31].map((days) => days * DAY));
  db.transaction(() => {
    for (let n = 0; n < 100_000; n++) {
      const contentType = ['longform', 'shorts', 'mixed'][n % 3]!;
      const kind = contentType === 'shorts' ? 'short' : 'long';
      const created = new Date(now - (n % 1000 === 0 ? 3 : 400 + (n % 2000)) * DAY).toISOString().slice(0, 10);
      const idx = Number(
        channel.run(`UCmillion${String(n).padStart(15, '0')}`, `@million${n}`, `Million channel ${n}`, n % 4 ? 'English' : 'Spanish', n % 4 ? 'en' : 'es', contentType, 5_000 + n, 1_000_000 + n * 10, created, now - 31 * DAY, now, kind === 'long' ? now - DAY : 0, kind === 'short' ? now - DAY : 0).lastInsertRowid,
      );
      for (const offset of offsets) snapshot.run(idx, now - offset, 5_000 + n - Math.floor(offset / HOUR), 1_000_000 + n * 10 - Math.floor(offset / 60_000) * (n % 7 === 0 ? 9 : 1));
      for (let v = 0; v < 5; v++) {
        const published = now - (1 + v * 3) * DAY;
        video.run(`m${String(n).padStart(7, '0')}${v}00`.slice(0, 11), idx, kind, `Video ${v} of ${n}`, v === 0 && n % 50 === 0 ? 90_000 : 2_000 + v, published, published, now);
      }
    }
  }).immediate();
}

async function indexRows(): Promise<BenchRow[]> {
  const now = Date.now();
  const clock = new ManualClock(now);
  const { engine, close } = await liveEngine('http://127.0.0.1:9', clock);
  try {
    millionSnapshots(engine, now);
    const snapshots = engine.db.prepare('SELECT COUNT(*) FROM live_snapshots').pluck().get() as number;
    const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
    const folder = (await service.call('folders.create', { name: 'Thirty' })).folder;
    const user = engine.db.prepare<[], number>('SELECT MAX(id) FROM users').pluck().get()!;
    const save = engine.db.prepare('INSERT INTO saved_channels (folder_id, user_id, channel_id, saved_at, seq) VALUES (?, ?, ?, ?, ?)');
    for (let n = 0; n < 30; n++) save.run(folder.id, user, `UCmillion${String(n * 3_331).padStart(15, '0')}`, now, n);
    const body = await service.call('folders.channels', { id: folder.id });
    if (body.channels.length !== 30 || body.channels.some((entry) => entry.views_24h === null)) throw new Error('folder channels are missing their deltas');
    const folderP50 = await timeMedian(50, () => service.call('folders.channels', { id: folder.id }));

    const filterSets: AlertFilters[] = [{}, { min_subs: 1_000 }, { languages: ['English'] }, { keywords: ['million'] }];
    const types = ['outlier', 'new_channel', 'breakout'] as const;
    for (let n = 0; n < 12; n++) {
      await service.call('alerts.create', { name: `Alert ${n}`, alert_type: types[n % 3]!, content_type: n % 2 ? 'shorts' : 'longform', filters: filterSets[n % 4]! });
    }
    const cycles: number[] = [];
    for (let run = 0; run < 3; run++) {
      clock.advance(60_000); // a new cycle: every alert is due again
      const started = performance.now();
      const report = await engine.evaluateAlerts('command');
      cycles.push(performance.now() - started);
      if (report.alerts_evaluated !== 12) throw new Error(`expected 12 alerts evaluated, got ${report.alerts_evaluated}`);
    }
    const postgresP50 = await postgresFolderP50(now);
    return [
      { name: `live index, ${(snapshots / 1e6).toFixed(1)}M snapshots: folder channels, 30 with deltas (p50)`, value: folderP50, unit: 'ms', budget: '≤ 50 ms' },
      {
        name: `live index on PostgreSQL, ${(snapshots / 1e6).toFixed(1)}M snapshots: folder channels, 30 with deltas (p50)`,
        value: postgresP50,
        unit: 'ms',
        baseline: { name: 'the same on SQLite', value: folderP50 },
        budget: '≤ 50 ms',
      },
      { name: 'live index, 100,000 known channels: alert cycle, 12 alerts of every type (median of 3)', value: median(cycles), unit: 'ms', budget: '≤ 5000 ms' },
    ];
  } finally {
    close();
  }
}

/**
 * The index of millionSnapshots (channels and their ten snapshots; no uploads, which folder
 * channels do not read) on a fleet's PostgreSQL, filled by the server itself, and a folder of 30 of
 * its channels read through an engine on it: the p50 of folder channels with their deltas.
 */
async function postgresFolderP50(now: number): Promise<number> {
  const postgres = await startPostgres();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-live-pg-'));
  try {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bench_live');
    await admin.end();
    const engine = await openEngine({ dataDir, clock: new ManualClock(now), jobRunner: { mode: 'none' }, store: parseStoreLocation(`${postgres.baseUrl}/bench_live`), storeOpening: { migrations: 'apply' } });
    try {
      await engine.localSettings.set('platform', 'live');
      const store = engine.store;
      await store.run(
        `INSERT INTO live_channels (idx, channel_id, handle, title, language, language_code, country, content_type, subscribers, total_views, video_count, created_at, first_read_ms, last_read_ms)
         SELECT n + 1, 'UCmillion' || lpad(n::text, 15, '0'), '@million' || n, 'Million channel ' || n, 'English', 'en', 'US', 'longform', 5000 + n, 1000000 + n * 10, 50,
           '2020-01-01', ?::bigint - ${31 * DAY}, ?::bigint FROM generate_series(0, 99999) AS n`,
        [now, now],
      );
      const offsets = [0, 6, 12, 18, 24, 30].map((hours) => hours * HOUR).concat([28, 29, 30, 31].map((days) => days * DAY));
      await store.run(
        `INSERT INTO live_snapshots (channel_idx, at_ms, subscribers, views, videos)
         SELECT c.idx, ?::bigint - o.offset_ms, 5000 + c.idx - 1 - o.offset_ms / ${HOUR}, 1000000 + (c.idx - 1) * 10 - o.offset_ms / 60000, 50
         FROM live_channels c CROSS JOIN unnest(?::bigint[]) AS o(offset_ms)`,
        [now, offsets],
      );
      await store.run('ANALYZE');
      const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
      const folder = (await service.call('folders.create', { name: 'Thirty' })).folder;
      const user = (await store.get<{ id: number }>('SELECT MAX(id) AS id FROM users'))!.id;
      for (let n = 0; n < 30; n++) {
        await store.run('INSERT INTO saved_channels (folder_id, user_id, channel_id, saved_at, seq) VALUES (?, ?, ?, ?, ?)', [folder.id, user, `UCmillion${String(n * 3_331).padStart(15, '0')}`, now, n]);
      }
      const body = await service.call('folders.channels', { id: folder.id });
      if (body.channels.length !== 30 || body.channels.some((entry) => entry.views_24h === null)) throw new Error('folder channels on PostgreSQL are missing their deltas');
      return await timeMedian(50, () => service.call('folders.channels', { id: folder.id }));
    } finally {
      await engine.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await postgres.stop();
  }
}

export async function liveRows(): Promise<BenchRow[]> {
  const site = await startSite(CHANNELS);
  try {
    return [...(await sweepRows(site.origin)), ...(await processChannelRows(site.origin)), ...(await indexRows())];
  } finally {
    site.stop();
  }
}
