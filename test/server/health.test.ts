/**
 * `GET /api/health`: open without a key (the status only), the job counts and problems with one,
 * and `degraded` with the reason when something keeps the service from its work.
 */
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import { Engine } from '../../src/engine/engine.js';
import { setFault, clearFault } from '../../src/engine/faults.js';
import { STUCK_WAIT_MS } from '../../src/engine/health.js';
import { LocalService } from '../../src/engine/local-service.js';
import { healthOutput } from '../../src/core/schemas/jobs.js';
import type { RunningServer } from '../../src/server/serve.js';
import { tempDataDir } from '../support/engines.js';
import { serveFreshEngine, type ServedEngine } from '../support/served-engine.js';

describe('serve: health with and without a key', () => {
  let engine: Engine;
  let server: RunningServer;
  let key: string;
  let served: ServedEngine;
  beforeAll(async () => {
    ({ engine, server, key } = served = await serveFreshEngine('starter', []));
  });
  afterAll(() => served.close());

  it('answers without a key, with the public fields only', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    const body = healthOutput.strict().parse(await response.json());
    expect(Object.keys(body).sort()).toEqual(['engine', 'status', 'store', 'version']);
    expect(body.store).toEqual({ kind: 'sqlite', reachable: true, schema_version: expect.any(Number) });
    // A fresh server with its own workers and a writable store has nothing wrong.
    expect(body.status).toBe('healthy');
  });

  it('answers the job counts and the problems with a valid key, and 401 for a key that is not', async () => {
    const response = await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${key}` } });
    const body = healthOutput.strict().parse(await response.json());
    // serve runs its own workers and its database takes writes: nothing is a problem here.
    expect(body).toMatchObject({ status: 'healthy', active_jobs: 0, total_jobs: 0, max_concurrent: expect.any(Number), problems: [] });
    const refused = await fetch(`${server.url}/api/health?api_key=tk_not_a_key`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ success: false, code: 'unauthorized' });
  });

  it('reports a full disk as degraded, with and without a key', async () => {
    await setFault(engine.settings, 'disk-full');
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the last check's second
      const open = await (await fetch(`${server.url}/api/health`)).json();
      expect(open).toMatchObject({ status: 'degraded' });
      expect(open.problems).toBeUndefined();
      const keyed = await (await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${key}` } })).json();
      expect(keyed.problems).toContainEqual({ check: 'disk', message: expect.stringMatching(/disk holding the data dir is full/) });
    } finally {
      await clearFault(engine.settings, 'disk-full');
    }
  });
});

describe('health: what makes the service degraded', () => {
  const opened: Engine[] = [];
  afterEach(() => {
    for (const engine of opened.splice(0)) {
      engine.close();
      fs.rmSync(engine.dataDir, { recursive: true, force: true });
    }
  });
  function open() {
    const clock = new ManualClock();
    const engine = Engine.open({ dataDir: tempDataDir(), clock, jobRunner: { mode: 'none' } });
    opened.push(engine);
    return { engine, clock, service: new LocalService(engine) };
  }
  const problems = async (service: LocalService) => ((await service.call('health', {})).problems ?? []).map((problem) => problem.check);

  it('jobs waiting over a minute with no worker alive', async () => {
    const { engine, clock, service } = open();
    await engine.loadAllFeatures();
    const channel = (await engine.platform()).sampleChannels(1)[0]!.channel_id;
    await service.call('channels.process', { channel, type: 'shorts' });
    clock.advance(STUCK_WAIT_MS - 1_000);
    expect(await problems(service)).not.toContain('workers');
    clock.advance(2_000);
    const body = await service.call('health', {});
    expect(body.status).toBe('degraded');
    expect(body.problems).toContainEqual({ check: 'workers', message: expect.stringMatching(/^1 job has waited over a minute and no worker is alive/) });
    // A worker host that is alive means the job will be run.
    (await engine.jobs.hosts.register('detached'));
    clock.advance(1_000);
    expect(await problems(service)).not.toContain('workers');
  });

  it('a database that refuses writes', async () => {
    const { engine, clock, service } = open();
    expect(await problems(service)).not.toContain('database');
    // As a read-only file or a full disk would: every write of the probe is refused.
    engine.db.exec(`CREATE TRIGGER refuse_writes BEFORE UPDATE ON settings BEGIN SELECT RAISE(ABORT, 'attempt to write a readonly database'); END;
      CREATE TRIGGER refuse_inserts BEFORE INSERT ON settings BEGIN SELECT RAISE(ABORT, 'attempt to write a readonly database'); END;`);
    clock.advance(1_000);
    const body = await service.call('health', {});
    expect(body.status).toBe('degraded');
    expect(body.problems).toContainEqual({ check: 'database', message: expect.stringMatching(/refuses writes \(attempt to write a readonly database\)/) });
    // Reading still works.
    expect(await service.call('folders.list', {})).toMatchObject({ success: true });
  });
});
