/**
 * Channel jobs on a live data dir when the platform fails them: a platform that cannot be reached
 * is tried again (the job's retries) before the job fails with its error; a page the parser does
 * not understand fails the job at once, naming the saved raw answer. Either way nothing of the
 * job's reads is stored.
 */
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/engine/clock.js';
import { Engine } from '../../../../src/engine/engine.js';
import { runWorker } from '../../../../src/engine/jobs/worker.js';
import { tempDataDir } from '../../../support/engines.js';
import { siteId } from '../../../support/live-channels.js';
import { LiveSite } from '../../../support/live-site.js';
import { startFixtureServer, type FixtureExchange, type FixtureServer } from '../../../support/platform-fixture-server.js';

const CHANNEL = siteId('liveJob');
const START = Date.UTC(2026, 10, 1);
let dataDir: string | undefined;
let server: FixtureServer | undefined;
let engines: Engine[] = [];

afterEach(async () => {
  for (const engine of engines) engine.close();
  engines = [];
  await server?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function liveEngine(origin: string, clock: ManualClock): Promise<Engine> {
  dataDir ??= tempDataDir();
  const engine = Engine.open({ dataDir, clock, jobRunner: { mode: 'none' }, jobTiming: { platformRetryMs: 20 } });
  engines.push(engine);
  engine.settings.set('platform', 'live');
  process.env.TUBEKIT_PLATFORM_ORIGIN = origin;
  process.env.TUBEKIT_PLATFORM_RATE = '100';
  await engine.platform();
  delete process.env.TUBEKIT_PLATFORM_ORIGIN;
  delete process.env.TUBEKIT_PLATFORM_RATE;
  await engine.loadAllFeatures();
  return engine;
}

function site(clock: ManualClock): LiveSite {
  const made = new LiveSite(() => clock.now());
  made.add({ id: CHANNEL, handle: '@livejob', title: 'Live Job', subscribers: 5_000, views: 100_000, videoCount: 10, joined: '2020-02-02', uploads: [] });
  return made;
}

/** Submits a job for the channel while the site answers; the job runs later, on `engine`. */
async function submitted(engine: Engine) {
  const user = await engine.authenticate((await engine.identity.createUserWithKey('ultimate', [])).key);
  const job = await engine.handle('channels.process', { channel: CHANNEL, type: 'longform' }, user);
  return { user, jobId: job.job_id };
}

const snapshots = (engine: Engine) => engine.db.prepare('SELECT COUNT(*) FROM live_snapshots').pluck().get() as number;

it('fails a job with the unreachable error only after its retries, storing nothing', async () => {
  const clock = new ManualClock(START);
  server = await startFixtureServer(site(clock).exchanges());
  const online = await liveEngine(server.origin, clock);
  const { user, jobId } = await submitted(online);
  const stored = snapshots(online);
  // A host that takes each connection and drops it at once: unreachable, and each attempt counted.
  let connections = 0;
  const dropping = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
  try {
    const offline = await liveEngine(`http://127.0.0.1:${(dropping.address() as AddressInfo).port}`, clock);
    await runWorker(offline, { untilIdle: true, idleMs: 0 });
    const job = await offline.handle('channels.processStatus', { job_id: jobId, wait_seconds: 0 }, user);
    expect(job).toMatchObject({ status: 'failed', error: expect.stringMatching(/^the video platform could not be reached \(www\.youtube\.com: (connection closed|connection reset)\)/) });
    expect(connections).toBe(3);
    expect(snapshots(offline)).toBe(stored);
  } finally {
    dropping.close();
  }
});

it('fails a job at once on a page it does not understand, naming the saved raw answer, storing nothing', async () => {
  const clock = new ManualClock(START);
  let broken = false;
  const exchanges: FixtureExchange[] = site(clock)
    .exchanges()
    .map((exchange) => (exchange.key.continuation === `about-${CHANNEL}` ? { ...exchange, render: () => (broken ? '{"responseContext":{}}' : exchange.render!()) } : exchange));
  server = await startFixtureServer(exchanges);
  const engine = await liveEngine(server.origin, clock);
  const { user, jobId } = await submitted(engine);
  const stored = snapshots(engine);
  broken = true;
  await runWorker(engine, { untilIdle: true, idleMs: 0 });
  const job = await engine.handle('channels.processStatus', { job_id: jobId, wait_seconds: 0 }, user);
  expect(job.status).toBe('failed');
  const saved = /saved at (\S+\.json)/.exec(job.error!)?.[1];
  expect(job.error).toMatch(/does not understand: aboutChannelViewModel/);
  expect(saved && fs.existsSync(saved)).toBe(true);
  expect(snapshots(engine)).toBe(stored);
  // One attempt: the about view was asked once by the submit and once by the job.
  expect(server.seen.filter((request) => request.key.continuation === `about-${CHANNEL}`)).toHaveLength(2);
});
