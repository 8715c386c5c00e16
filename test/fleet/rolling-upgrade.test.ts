/**
 * A rolling upgrade: two servers of "version N" serve mixed traffic (folders, saved channels,
 * channel jobs submitted, polled and run by their workers) while another process migrates the
 * database to "N+1" — columns added to the queue's and the workspace's tables. The old servers'
 * connections hold prepared statements over those tables; none of them may break: zero 5xx, and
 * every job submitted completes exactly once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { Fleet, fleetApi, type FleetServer } from '../support/fleet.js';
import { createTestDatabase } from '../support/postgres.js';

const fleet = new Fleet();
let key: string;
let channels: { channel_id: string; handle: string }[];

/** Version N+1's migration, applied by another process (an upgraded machine's `engine migrate`). */
const NEXT_VERSION = [
  'ALTER TABLE jobs ADD COLUMN upgrade_priority INTEGER NOT NULL DEFAULT 0',
  "ALTER TABLE folders ADD COLUMN upgrade_colour TEXT NOT NULL DEFAULT 'grey'",
  'ALTER TABLE saved_channels ADD COLUMN upgrade_note TEXT',
  'ALTER TABLE job_workers ADD COLUMN upgrade_host TEXT',
];

async function migrateToNext(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const statement of NEXT_VERSION) await client.query(statement);
    await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (100000, 'test: version N+1', 0)");
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

describe('a rolling upgrade under mixed traffic', () => {
  beforeAll(async () => {
    fleet.storeUrl = await createTestDatabase();
    await Promise.all([fleet.start(['--workers', '2']), fleet.start(['--workers', '2'])]);
    key = await fleet.cli(['engine', 'keys', 'create', '--plan', 'ultimate']);
    for (const [name, value] of [['processChannelPerMinute', '100000'], ['jobStatusPerMinute', '100000']]) {
      await fleet.cli(['engine', 'limits', 'set', 'ultimate', name!, value!]);
    }
    await fleet.cli(['engine', 'durations', '50']);
    channels = JSON.parse(await fleet.cli(['--json', 'engine', 'sample', 'channels', '--limit', '20'])).channels;
  }, 120_000);

  afterAll(() => fleet.stop());

  it('answers every request and runs every job while another process migrates', async () => {
    const statuses: { status: number; what: string; body: unknown }[] = [];
    const jobs = new Set<number>();
    let migrated = false;
    let afterMigration = 0;
    const call = async (server: FleetServer, what: string, path: string, init: { method?: string; body?: unknown } = {}) => {
      const answer = await fleetApi(server, path, { ...init, apiKey: key });
      statuses.push({ status: answer.status, what, body: answer.body });
      if (migrated) afterMigration += 1;
      return answer;
    };

    const traffic = async (lane: number) => {
      const folders: number[] = [];
      for (let step = 0; !migrated || afterMigration < 300; step++) {
        const server = fleet.servers[(lane + step) % fleet.servers.length]!;
        const channel = channels[(lane * 7 + step) % channels.length]!;
        switch (step % 5) {
          case 0:
            if (folders.length < 12) {
              const made = await call(server, 'create folder', '/api/folders', { method: 'POST', body: { name: `Lane ${lane} folder ${step}` } });
              if (made.status === 201) folders.push(made.body.folder?.id ?? made.body.id);
            }
            break;
          case 1:
            await call(server, 'list folders', '/api/folders');
            break;
          case 2: {
            const submitted = await call(server, 'submit job', '/api/process-channel', { method: 'POST', body: { channel: channel.handle, type: 'shorts' } });
            if (submitted.status === 200) jobs.add(submitted.body.job_id as number);
            break;
          }
          case 3: {
            const last = [...jobs].at(-1);
            if (last !== undefined) await call(server, 'job status', `/api/process-channel/${last}`);
            break;
          }
          case 4:
            if (folders.length > 0) {
              await call(server, 'save channel', '/api/saved-channels', { method: 'POST', body: { folder_id: folders.at(-1), channel_ids: [channel.channel_id] } });
            }
            break;
        }
        await sleep(10);
      }
    };

    const lanes = Promise.all(Array.from({ length: 6 }, (_, lane) => traffic(lane)));
    lanes.catch(() => (migrated = true));
    // Traffic first warms every server's connections and their prepared statements.
    for (const deadline = Date.now() + 30_000; statuses.filter((entry) => entry.what === 'job status').length < 20 && Date.now() < deadline; ) await sleep(100);
    await migrateToNext(fleet.storeUrl);
    migrated = true;
    await lanes;

    const failed = statuses.filter((entry) => entry.status >= 500);
    expect(failed.map((entry) => `${entry.what}: ${entry.status} ${JSON.stringify(entry.body)}`)).toEqual([]);
    // Nothing else went wrong either (a full folder answers 4xx, which the lanes avoid).
    expect(statuses.filter((entry) => entry.status >= 400)).toEqual([]);
    expect(jobs.size).toBeGreaterThan(20);

    // Every job submitted completes, once.
    type Row = { id: number; state: string; attempts: number };
    let rows: Row[] = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(250)) {
      rows = await fleet.query<Row>("SELECT id::int AS id, state, attempts FROM jobs");
      if (rows.every((row) => row.state === 'completed') && rows.length === jobs.size) break;
    }
    expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual([...jobs].sort((a, b) => a - b));
    expect(rows.filter((row) => row.state !== 'completed')).toEqual([]);
    expect(rows.filter((row) => row.attempts !== 1)).toEqual([]);
    // The new column is there for version N+1, and the old servers still answer the folders.
    expect(await fleet.query('SELECT DISTINCT upgrade_colour FROM folders')).toEqual([{ upgrade_colour: 'grey' }]);
  }, 120_000);
});
