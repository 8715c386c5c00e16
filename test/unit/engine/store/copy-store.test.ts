/**
 * `engine copy-store` on real stores: a data dir's SQLite file filled through the engine's own
 * calls (users, keys, a revoked key, folders, saved channels, rate-limit windows, shared and
 * per-data-dir settings, completed, failed and queued jobs) copied into a real PostgreSQL. The copy
 * matches the source row for row; a second run writes nothing and rewrites no row; a target holding
 * other data is refused without force and merged with it; a failing batch is rolled back while the
 * batches before it stay; a key copied from SQLite authenticates on an engine opened on the copy;
 * voices arrive with their sample files in the fleet's files dir, placed before their rows; and the
 * live store's terminated channels arrive searchable, answering as they did in the data dir.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../../../src/core/service.js';
import { ManualClock } from '../../../../src/engine/clock.js';
import { setFault, clearFault } from '../../../../src/engine/faults.js';
import type { Engine } from '../../../../src/engine/engine.js';
import { LocalService } from '../../../../src/engine/local-service.js';
import { deliverDue } from '../../../../src/engine/features/webhooks/delivery.js';
import { openEngine } from '../../../../src/engine/open-engine.js';
import { openCopySource, type CopySource } from '../../../../src/engine/store/copy/copy-source.js';
import { copyStore, CopyStopped, TargetNotEmpty, type CopyReport } from '../../../../src/engine/store/copy/copy-store.js';
import { COPIED_TABLES, NOT_COPIED } from '../../../../src/engine/store/copy/copy-tables.js';
import { openFleetStore } from '../../../../src/engine/store/open-store.js';
import type { PostgresStore } from '../../../../src/engine/store/postgres-store.js';
import { parseStoreLocation } from '../../../../src/engine/store/store-location.js';
import { setJobWork } from '../../../support/channel-fixtures.js';
import { tempDataDir } from '../../../support/engines.js';
import { upload, wavSample } from '../../../support/audio-fixtures.js';
import { createTestDatabase } from '../../../support/postgres.js';
import { liveChannel, liveVideo } from '../../../support/live-reads.js';
import { openDatabase } from '../../../../src/engine/store/database.js';
import { SqliteStore } from '../../../../src/engine/store/sqlite-store.js';
import { recordReads } from '../../../../src/engine/index/live/read-recorder.js';
import { openLiveIndex } from '../../../../src/engine/index/live/live-index.js';
import { RefreshStore } from '../../../../src/engine/features/refresh/refresh-store.js';
import { terminatedChannelId, terminatedRecords } from '../../../support/terminated-records.js';
import { recordTerminatedChannelsIn } from '../../../../src/engine/index/terminated/live-records.js';
import { PostgresLiveTerminated } from '../../../../src/engine/index/terminated/postgres/postgres-live-terminated.js';
import { parseKeyword } from '../../../../src/engine/index/terminated/search-text.js';
import { SqliteLiveTerminated } from '../../../../src/engine/index/terminated/sqlite-live-terminated.js';

type Row = Record<string, unknown>;

const TERMINATED_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const TERMINATED = terminatedRecords(120, TERMINATED_NOW);

/**
 * Tables only the live platform fills (the public signals of live managed-network checks, the live
 * index and its sweep's progress): empty in a sample data dir; copied in 'engine copy-store of a
 * live data dir' below.
 */
const LIVE_ONLY = new Set(['cms_signals', 'live_channels', 'live_snapshots', 'live_videos', 'live_video_members', 'live_refresh']);

let dataDir: string;
/** The fleet's shared files dir, which the copy fills with the source's voice samples. */
let filesDir: string;
let keys: { alice: string; bob: string; revoked: string; local: string };
let aliceId: number;

const postgresLocation = (url: string) => {
  const location = parseStoreLocation(url);
  if (location.kind !== 'postgres') throw new Error(`not a postgres URL: ${url}`);
  return location;
};

/** A target brought up as `engine copy-store` does: migrated first. */
async function openTarget(url: string): Promise<PostgresStore> {
  return (await openFleetStore(postgresLocation(url), { migrations: 'apply' })).store;
}

async function copy(url: string, options: Parameters<typeof copyStore>[2] = {}): Promise<CopyReport> {
  const source = openCopySource(`sqlite:${dataDir}`);
  const target = await openTarget(url);
  try {
    return await copyStore(source, target, { files: { from: dataDir, to: filesDir }, ...options });
  } finally {
    await target.close();
    source.close();
  }
}

/** The source's rows of a copied table: its own table, or the query the declaration gives (the sample world's row, live terminated channels). */
const sqliteRows = (source: CopySource, { table, key, filter, from }: (typeof COPIED_TABLES)[number]) =>
  source.db
    .prepare(`SELECT * FROM ${from ? `(${typeof from.select === 'function' ? from.select(source.db) : from.select})` : table} WHERE ${filter?.keep ?? '1'} ORDER BY ${key.join(', ')}`)
    .all() as Row[];

async function postgresRows(url: string, table: string, key: readonly string[]): Promise<Row[]> {
  const target = await openTarget(url);
  try {
    return await target.all<Row>(`SELECT * FROM ${table} ORDER BY ${key.join(', ')}`);
  } finally {
    await target.close();
  }
}

/** Every copied table's rows with each row's xmin (the transaction that last wrote it). */
async function targetSnapshot(url: string): Promise<Record<string, Row[]>> {
  const target = await openTarget(url);
  try {
    const snapshot: Record<string, Row[]> = {};
    for (const { table, key } of COPIED_TABLES) {
      snapshot[table] = await target.all<Row>(`SELECT xmin::text AS written_by, * FROM ${table} ORDER BY ${key.join(', ')}`);
    }
    return snapshot;
  } finally {
    await target.close();
  }
}

async function waitForJob(service: Service, jobId: number, state: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
    if ((await service.call('channels.processStatus', { job_id: jobId })).status === state) return;
  }
  throw new Error(`job ${jobId} did not become ${state}`);
}

beforeAll(async () => {
  dataDir = tempDataDir('tubekit-copy-source-');
  filesDir = tempDataDir('tubekit-copy-files-');
  // A data dir used as people use one: through the engine's own calls, with in-process workers.
  let engine: Engine = await openEngine({ dataDir, planOverrides: { starter: { processChannelPerMinute: 50 } }, webhooks: { allowLoopback: true } });
  await engine.reseedWorld({ seed: 11, channels: 400 });
  const channels = (await engine.platform()).sampleChannels(40).filter((channel) => channel.subscribers >= 10_000).slice(0, 4);
  keys = {
    local: await engine.defaultKey(),
    alice: (await engine.identity.createUserWithKey('ultimate', ['generations'])).key,
    bob: (await engine.identity.createUserWithKey('starter', [])).key,
    revoked: (await engine.identity.createUserWithKey('professional', [])).key,
  };
  await engine.identity.revokeKey(keys.revoked);
  aliceId = (await engine.authenticate(keys.alice)).userId;
  const alice = new LocalService(engine, keys.alice);
  const bob = new LocalService(engine, keys.bob);
  const cooking = (await alice.call('folders.create', { name: 'Cooking' })).folder;
  const gaming = (await alice.call('folders.create', { name: 'Gaming' })).folder;
  await bob.call('folders.create', { name: 'Cooking' });
  await alice.call('saved.add', { channel_ids: [channels[0]!.channel_id, channels[1]!.channel_id], folder_id: cooking.id });
  await alice.call('saved.add', { channel_ids: [channels[2]!.channel_id], folder_id: gaming.id });
  // Voices: a clone of each provider, each with its sample file in the data dir.
  await alice.call('voices.stealth.clone', { displayName: 'Alice', audioFile: upload(wavSample(3, { f0: 220 })) });
  await alice.call('voices.alt.clone', { voice_name: 'Alice alt', audio_file: upload(wavSample(30, { f0: 0 })), language: 'German' });
  // Alerts and their history: two cycles over the moving world trigger channels.
  for (const [type, content] of [['outlier', 'longform'], ['new_channel', 'longform'], ['breakout', 'shorts']] as const) {
    await alice.call('alerts.create', { name: `${type} ${content}`, alert_type: type, content_type: content });
  }
  // Webhooks: an endpoint for the events the cycles make, and a first (refused) attempt of their deliveries.
  await alice.call('webhooks.create', { url: 'http://127.0.0.1:9/hooks', events: ['alert.triggered'] });
  await engine.advanceWorld('1d');
  await engine.advanceWorld('1d');
  await deliverDue(engine);
  // Channel checks: managed-network verdicts (pre-checked, with their owners), an ad verdict, an external-monetization result.
  await alice.call('cms.check', { channel_id: channels[0]!.channel_id });
  await alice.call('monetization.ads', { channel_id: channels[1]!.channel_id });
  await alice.call('monetization.external', { channel_id: channels[2]!.channel_id });
  // Terminated channels in the data dir's live store (the refresh sweep's and the import's path).
  await recordTerminatedChannelsIn(new SqliteLiveTerminated(engine.db, () => TERMINATED_NOW), TERMINATED);
  await engine.settings.set('cdn_base_url', 'https://cdn.example.com');
  await engine.settings.set('limits', { starter: { processChannelPerMinute: 7 } });
  // Jobs: two that complete, one that fails (each counted in bob's rate-limit window)…
  await setJobWork(engine, 0);
  for (const channel of channels.slice(0, 2)) {
    const job = await bob.call('channels.process', { channel: channel.channel_id, type: 'longform' });
    await waitForJob(bob, job.job_id, 'completed');
  }
  await setFault(engine.settings, 'channel-job-fail');
  const failing = await bob.call('channels.process', { channel: channels[2]!.channel_id, type: 'longform' });
  await waitForJob(bob, failing.job_id, 'failed');
  await clearFault(engine.settings, 'channel-job-fail');
  // (A LocalService's close closes its engine.)
  await engine.close();
  // …and one still queued: no worker runs on the engine opened now.
  engine = await openEngine({ dataDir, jobRunner: { mode: 'none' } });
  const queued = await new LocalService(engine, keys.alice).call('channels.process', { channel: channels[3]!.channel_id, type: 'longform' });
  expect(queued.status).toBe('queued');
  await engine.close();
}, 60_000);

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(filesDir, { recursive: true, force: true });
});

describe('engine copy-store', () => {
  let url: string;
  let first: CopyReport;
  beforeAll(async () => {
    url = await createTestDatabase({ migrated: false });
    first = await copy(url, { batchSize: 2 });
  }, 60_000);

  it('copies every declared table row for row, leaving out queued jobs and the data dir\'s own settings', async () => {
    const source = openCopySource(`sqlite:${dataDir}`);
    try {
      for (const spec of COPIED_TABLES) {
        const { table, key } = spec;
        const expected = sqliteRows(source, spec);
        if (!LIVE_ONLY.has(table)) expect(expected.length, `${table} has rows in the source`).toBeGreaterThan(0);
        // Columns only the fleet keeps (the queue's `watched`) hold their defaults; the rest match the source's.
        const sourceColumns = Object.keys(expected[0] ?? {});
        const copied = (await postgresRows(url, table, key)).map((row) => Object.fromEntries(sourceColumns.map((column) => [column, row[column]])));
        expect(copied, table).toEqual(expected);
        expect(first.tables[table], table).toMatchObject({ rows: expected.length, written: expected.length });
      }
    } finally {
      source.close();
    }
    expect(first.tables.users!.rows).toBe(4);
    expect(first.tables.jobs).toMatchObject({ rows: 3, skipped: 1, skipped_reason: expect.stringMatching(/queued and running jobs are not copied/) });
    expect((await postgresRows(url, 'jobs', ['id'])).map((job) => job.state).sort()).toEqual(['completed', 'completed', 'failed']);
    const settings = (await postgresRows(url, 'settings', ['key'])).map((row) => row.key);
    expect(settings).toEqual(expect.arrayContaining(['cdn_base_url', 'limits', 'channel-job-duration']));
    // The sample world's parameters stay with the data dir they describe.
    expect(settings).not.toContain('world');
    expect(first.tables.settings!.skipped).toBeGreaterThan(0);
    expect(first.not_copied).toEqual(NOT_COPIED);
  });

  it('copies the live store\'s terminated channels so that the fleet\'s store answers every search as the data dir did', async () => {
    const source = openCopySource(`sqlite:${dataDir}`);
    const target = await openTarget(url);
    try {
      const before = new SqliteLiveTerminated(source.db, () => TERMINATED_NOW);
      const after = new PostgresLiveTerminated(target, () => TERMINATED_NOW);
      expect(first.tables.live_terminated).toMatchObject({ rows: TERMINATED.length, written: TERMINATED.length });
      for (const q of ['cooking', 'lucia, チャンネル', 'one-pot']) {
        for (const sort of ['date', 'subs', 'similarity'] as const) {
          const search = { keywords: q.split(',').map((word) => parseKeyword(word)!), sort, direction: 'desc' as const, offset: 0, limit: 30 };
          const expected = await before.search(search);
          expect(expected.total, q).toBeGreaterThan(0);
          expect({ ...(await after.search(search)), plan: null }, `${q} ${sort}`).toEqual({ ...expected, plan: null });
        }
      }
      expect(await after.byId(terminatedChannelId(5))).toEqual(await before.byId(terminatedChannelId(5)));
      // The words' counts (one-word totals) are kept by the table's triggers, for copied rows too.
      expect((await after.search({ keywords: [parseKeyword('cooking')!], sort: 'date', direction: 'desc', offset: 0, limit: 1 })).total).toBe(
        (await target.get<{ n: number }>("SELECT count(*) AS n FROM live_terminated WHERE document @@ 'cooking'::tsquery"))!.n,
      );
    } finally {
      await target.close();
      source.close();
    }
  });

  it('places every voice\'s sample file in the fleet\'s files dir, byte for byte, and finds them there on a second run', async () => {
    const voices = await postgresRows(url, 'voices', ['id']);
    expect(voices.map((voice) => voice.provider).sort()).toEqual(['alt', 'stealth']);
    for (const voice of voices) {
      const relative = voice.sample_path as string;
      expect(fs.readFileSync(path.join(filesDir, relative)).equals(fs.readFileSync(path.join(dataDir, relative))), relative).toBe(true);
    }
    expect(first.tables.voices!.files).toEqual({ copied: 2, present: 0, missing: 0 });
    // Nothing half-written is left beside them.
    const leftovers = (fs.readdirSync(filesDir, { recursive: true }) as string[]).filter((name) => name.endsWith('.part'));
    expect(leftovers).toEqual([]);
    const again = await copy(url);
    expect(again.tables.voices).toMatchObject({ written: 0, files: { copied: 0, present: 2, missing: 0 } });
  });

  it('copies nothing new on a second run and rewrites no row', async () => {
    const before = await targetSnapshot(url);
    const again = await copy(url);
    for (const [table, copied] of Object.entries(again.tables)) {
      expect(copied, table).toMatchObject({ rows: first.tables[table]!.rows, written: 0 });
    }
    expect(await targetSnapshot(url)).toEqual(before);
  });

  it('moves the data dir\'s sample world to the fleet: its definition and clock, answered by a server with a data dir of its own', async () => {
    const [row] = await postgresRows(url, 'sample_world', ['id']);
    expect(row).toMatchObject({ seed: '11', channels: 400, advanced_ms: 2 * 86_400_000 });
    const fleetDir = tempDataDir('tubekit-copy-fleet-');
    const engine = await openEngine({ dataDir: fleetDir, store: postgresLocation(url), jobRunner: { mode: 'none' } });
    const source = await openEngine({ dataDir, jobRunner: { mode: 'none' } });
    try {
      const [onFleet, onSource] = [(await engine.platform()).simulation!.info(), (await source.platform()).simulation!.info()];
      const fields = ({ seed, channel_count, reference_date, advanced_ms, arrived_channels, video_count }: typeof onFleet) => ({ seed, channel_count, reference_date, advanced_ms, arrived_channels, video_count });
      expect(fields(onFleet)).toEqual(fields(onSource));
      // The index goes on from the source's edition: what was derived from it (snapshots, rankings) stays good.
      expect((await engine.index()).edition).toBe((await source.index()).edition);
      const channel = (await source.platform()).sampleChannels(3)[2]!;
      expect((await engine.platform()).channelById(channel.channel_id)).toEqual(channel);
    } finally {
      await source.close();
      await engine.close();
      fs.rmSync(fleetDir, { recursive: true, force: true });
    }
  });

  it('gives a copied key to an engine on the copy: it authenticates, sees its folders, and new rows take new ids', async () => {
    const fleetDir = tempDataDir('tubekit-copy-fleet-');
    const engine = await openEngine({ dataDir: fleetDir, filesDir, store: postgresLocation(url), jobRunner: { mode: 'none' } });
    try {
      expect((await engine.authenticate(keys.alice)).userId).toBe(aliceId);
      const aliceVoices = await new LocalService(engine, keys.alice).call('voices.stealth.list', {});
      expect(aliceVoices.voices.filter((voice) => voice.name === 'Alice')).toHaveLength(1);
      await expect(engine.authenticate(keys.revoked)).rejects.toMatchObject({ status: 401 });
      const alice = new LocalService(engine, keys.alice);
      const folders = await alice.call('folders.list', {});
      expect(folders.folders.map((folder) => [folder.name, folder.channel_count])).toEqual([['Cooking', 2], ['Gaming', 1]]);
      // Bob's finished jobs are his on the fleet too.
      const finished = (await postgresRows(url, 'jobs', ['id'])).find((job) => job.state === 'completed')!;
      const bob = new LocalService(engine, keys.bob);
      expect((await bob.call('channels.processStatus', { job_id: finished.id as number })).status).toBe('completed');
      // The identity sequences moved past the copied ids.
      const created = await engine.identity.createUserWithKey('starter', []);
      expect(created.user_id).toBe(5);
      const folder = (await alice.call('folders.create', { name: 'Made on the fleet' })).folder;
      expect(folder.id).toBe(4);
    } finally {
      await engine.close();
      fs.rmSync(fleetDir, { recursive: true, force: true });
    }
  });

  it('refuses a target holding rows that did not come from this source, naming them, and merges into it with force', async () => {
    // The test before made a user with a key and a folder on the copy.
    const refused = await copy(url).then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(TargetNotEmpty);
    expect((refused as TargetNotEmpty).holdings).toEqual({ users: 1, api_keys: 1, folders: 1 });
    const merged = await copy(url, { force: true });
    expect(merged.tables.users).toMatchObject({ rows: 4, written: 0 });
    expect((await postgresRows(url, 'folders', ['id'])).map((folder) => folder.name)).toEqual(['Cooking', 'Gaming', 'Cooking', 'Made on the fleet']);
  });
});

describe('engine copy-store into a target with a row in the way', () => {
  it('rolls back the failing batch only, keeps the batches before it, and says where it stopped', async () => {
    const url = await createTestDatabase();
    const target = await openTarget(url);
    try {
      // Alice's user as in the source, and a folder of hers named like one of hers, under another id.
      const source = openCopySource(`sqlite:${dataDir}`);
      const aliceRow = source.db.prepare('SELECT * FROM users WHERE id = ?').get(aliceId) as Row;
      source.close();
      await target.run('INSERT INTO users (id, name, plan, scopes, is_default, created_at) VALUES (?, ?, ?, ?, ?, ?)', [aliceRow.id as number, aliceRow.name as string, aliceRow.plan as string, aliceRow.scopes as string, aliceRow.is_default as number, aliceRow.created_at as number]);
      await target.run("INSERT INTO folders (id, user_id, name, name_key, created_at) VALUES (900, ?, 'GAMING', 'gaming', 1)", [aliceId]);
    } finally {
      await target.close();
    }
    const stopped = await copy(url, { force: true, batchSize: 1 }).then(() => undefined, (error: unknown) => error);
    expect(stopped).toBeInstanceOf(CopyStopped);
    const error = stopped as CopyStopped;
    // Folders are copied in id order: Cooking (1) went in, Gaming (2) collided with GAMING.
    expect(error.table).toBe('folders');
    expect(error.at).toBe(1);
    expect((error.cause as Error).message).toMatch(/duplicate key/);
    expect(error.report.tables.users).toMatchObject({ rows: 4 });
    expect(error.report.tables.folders).toMatchObject({ rows: 1, written: 1 });
    expect(error.report.tables.saved_channels).toBeUndefined();
    expect((await postgresRows(url, 'folders', ['id'])).map((folder) => [folder.id, folder.name])).toEqual([[1, 'Cooking'], [900, 'GAMING']]);
    expect(await postgresRows(url, 'saved_channels', ['folder_id', 'channel_id'])).toEqual([]);
    expect(await postgresRows(url, 'api_keys', ['id'])).toHaveLength(4);
  });
});

describe('engine copy-store of repeated rows and into a running fleet', () => {
  it('copies rows without a unique key as many times as the source has them, never more', async () => {
    const dir = tempDataDir('tubekit-copy-counted-');
    try {
      // Three events of one user in one millisecond, one in the next: rows that only differ in number.
      const clock = new ManualClock();
      const engine = await openEngine({ dataDir: dir, clock, jobRunner: { mode: 'none' } });
      const { user_id: userId } = await engine.identity.createUserWithKey('starter', []);
      for (let event = 0; event < 3; event++) await engine.rates.take(userId, 'probe', 10, 60_000, 'probes');
      clock.advance(1);
      await engine.rates.take(userId, 'probe', 10, 60_000, 'probes');
      await engine.close();
      const url = await createTestDatabase();
      const copyFrom = async () => {
        const source = openCopySource(`sqlite:${dir}`);
        const target = await openTarget(url);
        try {
          return await copyStore(source, target, { batchSize: 1 });
        } finally {
          await target.close();
          source.close();
        }
      };
      const events = async () => (await postgresRows(url, 'rate_events', ['at'])).map((row) => row.at as number);
      const at = clock.now() - 1;
      expect((await copyFrom()).tables.rate_events).toEqual({ rows: 4, written: 4, skipped: 0 });
      expect(await events()).toEqual([at, at, at, at + 1]);
      expect((await copyFrom()).tables.rate_events).toEqual({ rows: 4, written: 0, skipped: 0 });
      expect(await events()).toEqual([at, at, at, at + 1]);
      // A copy that stopped after one of the three: the next run adds the two missing, and no more.
      const target = await openTarget(url);
      await target.run('DELETE FROM rate_events WHERE ctid IN (SELECT ctid FROM rate_events WHERE at = ? LIMIT 2)', [at]);
      await target.close();
      expect((await copyFrom()).tables.rate_events).toEqual({ rows: 4, written: 2, skipped: 0 });
      expect(await events()).toEqual([at, at, at, at + 1]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops before copying anything when the source has a column the target lacks, naming it', async () => {
    const dir = tempDataDir('tubekit-copy-extra-column-');
    try {
      const engine = await openEngine({ dataDir: dir, jobRunner: { mode: 'none' } });
      await new LocalService(engine, (await engine.identity.createUserWithKey('starter', [])).key).call('folders.create', { name: 'Kept' });
      await engine.close();
      // What a newer tubekit's SQLite migration could have added.
      const db = openDatabase(path.join(dir, 'tubekit.db'));
      db.exec("ALTER TABLE folders ADD COLUMN colour TEXT NOT NULL DEFAULT 'blue'");
      db.close();
      const url = await createTestDatabase();
      const source = openCopySource(`sqlite:${dir}`);
      const target = await openTarget(url);
      try {
        await expect(copyStore(source, target)).rejects.toThrow(
          "The source's folders has the column colour, which the target's folders lacks: copying would lose it. Nothing was copied; upgrade the target (engine migrate) or this tubekit.",
        );
      } finally {
        await target.close();
        source.close();
      }
      // Only the operator account the migration made.
      expect((await postgresRows(url, 'users', ['id'])).map((user) => user.name)).toEqual(['operator']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells servers already running on the target, so they see the copied settings and keys at once', async () => {
    const url = await createTestDatabase();
    const fleetDir = tempDataDir('tubekit-copy-running-');
    const engine = await openEngine({ dataDir: fleetDir, store: postgresLocation(url), jobRunner: { mode: 'none' } });
    try {
      expect(engine.settings.get('cdn_base_url')).toBeUndefined();
      await expect(engine.authenticate(keys.alice)).rejects.toMatchObject({ status: 401 });
      await copy(url);
      // Fleet settings live in memory, refreshed only by notifications.
      for (const deadline = Date.now() + 5_000; engine.settings.get('cdn_base_url') === undefined && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(engine.settings.get('cdn_base_url')).toBe('https://cdn.example.com');
      expect(engine.planLimits('starter').processChannelPerMinute).toBe(7);
      // Keys are told apart by a notification of their own, which may arrive a moment after the settings'.
      const authenticated = async () => engine.authenticate(keys.alice).then((principal) => principal.userId, () => null);
      await expect.poll(authenticated, { timeout: 5_000, interval: 20 }).toBe(aliceId);
    } finally {
      await engine.close();
      fs.rmSync(fleetDir, { recursive: true, force: true });
    }
  });
});

describe('engine copy-store of a live data dir', () => {
  it('moves its index into the fleet: channels, snapshots, videos, collab listings and the sweep\'s progress, answered alike there', async () => {
    const dir = tempDataDir('tubekit-copy-live-');
    const scratch = tempDataDir('tubekit-copy-live-target-');
    const T0 = Date.UTC(2026, 10, 1);
    const HOUR = 3_600_000;
    const [jane, sam] = ['UCcopyLiveJane0000000001', 'UCcopyLiveSam00000000002'];
    try {
      // The live index of a data dir, filled as reads fill it: a day of reads of Jane, a collab she scanned, one sweep's progress.
      const db = openDatabase(path.join(dir, 'tubekit.db'));
      const source = new SqliteStore(db);
      for (let hour = 0; hour <= 24; hour += 6) {
        await recordReads(source, [{ read: { channel: liveChannel({ channel_id: jane, total_views: 1_000 + hour * 100, subscribers: 50 + hour }) }, atMs: T0 + hour * HOUR }], () => null);
      }
      await recordReads(source, [{ read: { watched: [liveVideo('vidCopyCol1', jane, { channel_ids: [jane, sam], views: 4_000, published_at: new Date(T0 + 12 * HOUR).toISOString() })], scanned: jane }, atMs: T0 + 24 * HOUR }], () => null);
      const sweep = new RefreshStore(source);
      const janeIdx = await sweep.idxOf(jane);
      expect(await sweep.claim(janeIdx, 'sweep-test', T0 + 24 * HOUR, 60_000, T0 + 24 * HOUR)).toBe(true);
      await sweep.succeeded(janeIdx, 'sweep-test', T0 + 24 * HOUR);
      const here = openLiveIndex(source, db, () => T0 + 24 * HOUR);
      const expected = {
        jane: await here.channels.byId(jane),
        deltas: await here.statistics.deltas(jane),
        daily: await here.statistics.dailyStats(jane),
        collabs: await here.collabs.knownPublished(0, T0 + 24 * HOUR),
      };
      db.close();

      const url = await createTestDatabase();
      const copySource = openCopySource(`sqlite:${dir}`);
      let target = await openTarget(url);
      try {
        const report = await copyStore(copySource, target, {});
        expect(report.tables.live_channels).toMatchObject({ rows: 2, written: 2 });
        expect(report.tables.live_snapshots).toMatchObject({ rows: 5, written: 5 });
        expect(report.tables.live_video_members).toMatchObject({ rows: 2, written: 2 });
        expect(report.tables.live_refresh).toMatchObject({ rows: 1, written: 1 });
        // A second run writes nothing.
        expect((await copyStore(copySource, target, {})).tables.live_snapshots).toMatchObject({ rows: 5, written: 0 });
      } finally {
        await target.close();
        copySource.close();
      }

      // The fleet's index answers as the data dir's did; a channel read there gets a key of its own.
      target = await openTarget(url);
      const scratchDb = openDatabase(path.join(scratch, 'tubekit.db'));
      try {
        const there = openLiveIndex(target, scratchDb, () => T0 + 24 * HOUR);
        expect(expected.deltas).toEqual({ views_24h: 2_400, views_48h: null, subs_24h: 24, subs_48h: null });
        expect(await there.channels.byId(jane)).toEqual(expected.jane);
        expect(await there.statistics.deltas(jane)).toEqual(expected.deltas);
        expect(await there.statistics.dailyStats(jane)).toEqual(expected.daily);
        expect(await there.collabs.knownPublished(0, T0 + 24 * HOUR)).toEqual(expected.collabs);
        expect(expected.collabs).toHaveLength(1);
        // Swept at the copied time: not due again before the interval has passed.
        expect(await new RefreshStore(target).due([janeIdx], T0 + 24 * HOUR - 1)).toEqual([]);
        await recordReads(target, [{ read: { channel: liveChannel({ channel_id: 'UCcopyLiveNew00000000003' }) }, atMs: T0 + 25 * HOUR }], () => null);
        expect((await there.channels.byId('UCcopyLiveNew00000000003'))!.idx).toBe(3);
      } finally {
        scratchDb.close();
        await target.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('the declared list of copied tables', () => {
  it('names every table of the Postgres schema, as copied or as not copied with a reason', async () => {
    const target = await openTarget(await createTestDatabase({ migrated: false }));
    try {
      const tables = (await target.all<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
      )).map((row) => row.table_name).sort();
      const declared = [...COPIED_TABLES.map((table) => table.table), ...Object.keys(NOT_COPIED)].sort();
      expect(declared).toEqual(tables);
      for (const [table, reason] of Object.entries(NOT_COPIED)) expect(reason.length, table).toBeGreaterThan(20);
    } finally {
      await target.close();
    }
  });

  it('lists parents before the tables whose foreign keys name them', async () => {
    const target = await openTarget(await createTestDatabase());
    try {
      const references = await target.all<{ child: string; parent: string }>(
        `SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint c
         JOIN pg_class child ON child.oid = c.conrelid JOIN pg_class parent ON parent.oid = c.confrelid
         WHERE c.contype = 'f'`,
      );
      const order = COPIED_TABLES.map((table) => table.table);
      expect(references.length).toBeGreaterThan(0);
      for (const { child, parent } of references) {
        if (order.includes(child)) expect(order.indexOf(parent), `${parent} before ${child}`).toBeLessThan(order.indexOf(child));
      }
    } finally {
      await target.close();
    }
  });
});

describe('the source of engine copy-store', () => {
  it('refuses what is not a tubekit data dir with a 400 naming it, and creates nothing there', () => {
    const empty = tempDataDir('tubekit-not-a-data-dir-');
    try {
      expect(() => openCopySource(`sqlite:${empty}`)).toThrow(/is not a tubekit data dir: it holds no tubekit.db/);
      expect(fs.readdirSync(empty)).toEqual([]);
      const text = path.join(empty, 'notes.db');
      fs.writeFileSync(text, 'not a database at all, just some text that is long enough to have a header');
      expect(() => openCopySource(`sqlite:${text}`)).toThrow(/not a tubekit database/);
      expect(() => openCopySource(`sqlite:${path.join(empty, 'missing')}`)).toThrow(/There is no data dir or file at/);
      expect(() => openCopySource('postgres://someone@db/elsewhere')).toThrow(/not from PostgreSQL/);
      try {
        openCopySource(`sqlite:${empty}`);
      } catch (error) {
        expect(error).toMatchObject({ status: 400 });
      }
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
