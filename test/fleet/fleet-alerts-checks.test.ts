/**
 * Alerts and channel checks in a fleet: real `tubekit serve` processes, each with its own data dir
 * (its own copy of the sample world), sharing one PostgreSQL database. An alert made through one
 * server is listed by another and the plan's alert cap holds across them; two servers whose alert
 * schedules fire together evaluate the alerts in one cycle; a verdict checked through one server is
 * answered from the store by another; the hourly live-check cap holds across servers under
 * concurrent requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { Fleet, fleetApi, type FleetServer } from '../support/fleet.js';
import { createTestDatabase } from '../support/postgres.js';

type Server = FleetServer;

interface SampleChannel {
  channel_id: string;
  content_type: string;
}

const fleet = new Fleet();
let key: string;

const api = (server: Server, path: string, init: { method?: string; body?: unknown; apiKey?: string } = {}) =>
  fleetApi(server, path, { ...init, apiKey: init.apiKey ?? key });
const startServer = (args: string[] = []) => fleet.start(['--workers', '0', ...args]);
const fleetCli = (args: string[]) => fleet.cli(args);
const query = <T>(sql: string, params: unknown[] = []) => fleet.query<T>(sql, params);

describe('alerts and channel checks on a fleet sharing one PostgreSQL', () => {
  let a: Server;
  let b: Server;
  let longform: SampleChannel[];

  beforeAll(async () => {
    fleet.storeUrl = await createTestDatabase();
    [a, b] = await Promise.all([startServer(), startServer()]);
    key = await fleetCli(['engine', 'keys', 'create', '--plan', 'ultimate']);
    // Live checks that take a moment, so concurrent requests overlap.
    await fleetCli(['engine', 'durations', '200']);
    const sample = JSON.parse(await fleetCli(['--json', 'engine', 'sample', 'channels', '--limit', '300'])) as { channels: SampleChannel[] };
    longform = sample.channels.filter((channel) => channel.content_type === 'longform');
  }, 120_000);

  afterAll(() => fleet.stop());

  it('lists on one server an alert made on another, and holds the plan cap of 5 across both under 12 concurrent creates', async () => {
    const made = await api(a, '/api/alerts', { method: 'POST', body: { name: 'Made on A', alert_type: 'new_channel' } });
    expect(made.status).toBe(201);
    const listed = await api(b, '/api/alerts');
    expect(listed.body.alerts.map((alert: { name: string }) => alert.name)).toEqual(['Made on A']);
    const edited = await api(b, `/api/alerts/${made.body.alert.id}`, { method: 'PATCH', body: { name: 'Edited on B' } });
    expect(edited.status).toBe(200);
    expect((await api(a, '/api/alerts')).body.alerts[0].name).toBe('Edited on B');

    const starter = await fleetCli(['engine', 'keys', 'create', '--plan', 'starter']);
    const creates = Array.from({ length: 12 }, (_, index) =>
      api(index % 2 ? b : a, '/api/alerts', { method: 'POST', body: { name: `Starter ${index}`, alert_type: 'outlier' }, apiKey: starter }),
    );
    const statuses = (await Promise.all(creates)).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 403)).toHaveLength(7);
    expect((await api(b, '/api/alerts', { apiKey: starter })).body.count).toBe(5);
  }, 60_000);

  it('evaluates the alerts in one cycle when two servers\' schedules fire together, and every server answers what it found', async () => {
    const due = Number((await query<{ n: string }>('SELECT COUNT(*) AS n FROM alerts WHERE enabled = 1'))[0]!.n);
    expect(due).toBeGreaterThan(0);
    expect(await query('SELECT id FROM alert_cycles')).toEqual([]);
    // Two servers whose first scheduled cycle runs as they start, at the same moment.
    const [c, d] = await Promise.all([startServer(['--alerts-every', '60']), startServer(['--alerts-every', '60'])]);
    let evaluated: Array<{ last_evaluated_at: string | null }> = [];
    for (const deadline = Date.now() + 60_000; ; await sleep(200)) {
      evaluated = (await api(a, '/api/alerts/outlier-status')).body.alerts;
      if (evaluated.every((alert) => alert.last_evaluated_at !== null)) break;
      if (Date.now() > deadline) throw new Error('no server evaluated the alerts');
    }
    // Let the other server's first cycle finish too, whichever came second.
    await sleep(1_500);
    const cycles = await query<{ reason: string; alerts_evaluated: number; finished_at: string | null }>('SELECT reason, alerts_evaluated, finished_at FROM alert_cycles');
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ reason: 'schedule', alerts_evaluated: due });
    expect(cycles[0]!.finished_at).not.toBeNull();
    // What the cycle found, answered alike by every server.
    const feeds = await Promise.all([a, b, c, d].map(async (server) => (await api(server, '/api/alerts/triggered?history=1')).body));
    for (const feed of feeds) expect(feed).toEqual(feeds[0]);
  }, 120_000);

  it('answers from the store on one server a managed-network verdict checked live on another', async () => {
    const channelId = longform[0]!.channel_id;
    const live = await api(a, `/api/channel-cms/${channelId}?refresh=1`);
    expect(live.status).toBe(200);
    expect(live.body.checked_live).toBe(true);
    const stored = await api(b, `/api/channel-cms/${channelId}`);
    expect(stored.body).toMatchObject({ status: live.body.status, checked_at: live.body.checked_at, checked_live: false });
    expect(stored.body.note).toMatch(/From a live check/);
  }, 30_000);

  it('answers on one server the ad verdict and the external classification another stored', async () => {
    const channelId = longform[0]!.channel_id;
    const first = await api(a, `/api/channel-monetized/${channelId}`);
    expect(first.status).toBe(200);
    const second = await api(b, `/api/channel-monetized/${channelId}`);
    // The second check's "previous" is the first's verdict, stored by the other server.
    expect(second.body.previous).toMatchObject({ last_checked_at: first.body.checked_at, monetized: first.body.monetized });

    const classified = await api(a, `/api/channel-external-monetization/${channelId}`);
    expect(classified.body).toMatchObject({ classified: true, checked_live: true });
    const answered = await api(b, `/api/channel-external-monetization/${channelId}?skip_live=1`);
    expect(answered.body).toMatchObject({ classified: true, checked_live: false, classified_at: classified.body.classified_at, summary: classified.body.summary });
  }, 30_000);

  it('holds the hourly live-check cap of 5 across both servers under 12 concurrent live checks', async () => {
    const starter = await fleetCli(['engine', 'keys', 'create', '--plan', 'starter']);
    const channels = longform.slice(1, 13);
    expect(channels).toHaveLength(12);
    const checks = channels.map((channel, index) => api(index % 2 ? b : a, `/api/channel-cms/${channel.channel_id}?refresh=1`, { apiKey: starter }));
    const answers = await Promise.all(checks);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    for (const answer of answers.filter((answer) => answer.status === 429)) expect(answer.body.code).toBe('rate_limited');
    const [counted] = await query<{ n: string }>("SELECT COUNT(*) AS n FROM rate_events WHERE bucket = 'cms-live' AND user_id = (SELECT user_id FROM api_keys ORDER BY id DESC LIMIT 1)");
    expect(Number(counted!.n)).toBe(5);
  }, 60_000);
});
