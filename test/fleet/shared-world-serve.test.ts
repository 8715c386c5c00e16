/**
 * The sample world across real processes: `tubekit serve` processes and CLI commands, each with a
 * data dir of its own, on one PostgreSQL database. `engine seed` and `engine world advance` run by a
 * CLI (another machine) change what every server answers at once: the same channel for a handle,
 * the same figures; two advances at once add up; a server started later answers the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fleet, fleetApi, type FleetServer } from '../support/fleet.js';
import { createTestDatabase } from '../support/postgres.js';

const fleet = new Fleet();
const { servers } = fleet;
let key: string;
let folderId: number;
let handles: string[];

const api = (server: FleetServer, path: string, init: { method?: string; body?: unknown } = {}) => fleetApi(server, path, { ...init, apiKey: key });

/** A folder's channels with their figures, as one server answers them. */
async function figures(server: FleetServer) {
  const answer = await api(server, `/api/folders/${folderId}/channels`);
  expect(answer.status).toBe(200);
  return (answer.body.channels as Array<Record<string, unknown>>).map(({ channel_id, subscribers, total_views, video_count, views_24h, views_48h }) => ({ channel_id, subscribers, total_views, video_count, views_24h, views_48h }));
}

const status = async () => JSON.parse(await fleet.cli(['--json', 'engine', 'status'])) as { world_seed: string; world_channels: number; world_time: string; world_arrived_channels: number };

describe('the sample world on a fleet of serve processes', () => {
  beforeAll(async () => {
    fleet.storeUrl = await createTestDatabase();
    await Promise.all([fleet.start(['--workers', '0']), fleet.start(['--workers', '0'])]);
    // Both servers read their default world before the fleet's is seeded by another machine.
    key = await fleet.cli(['engine', 'keys', 'create', '--plan', 'ultimate']);
    for (const server of servers) expect((await api(server, '/api/channels/resolve', { method: 'POST', body: { input: '@nosuchhandle123' } })).status).toBe(404);
    await fleet.cli(['engine', 'seed', '--channels', '400', '--seed', '9', '--terminated', '0']);
    handles = JSON.parse(await fleet.cli(['--json', 'engine', 'sample', 'channels', '--limit', '4'])).channels.map((channel: { handle: string }) => channel.handle);
  }, 120_000);

  afterAll(() => fleet.stop());

  it('answers the world seeded by a CLI on another machine: the same channel for a handle on every server', async () => {
    const resolved = await Promise.all(servers.map((server) => Promise.all(handles.map(async (handle) => (await api(server, '/api/channels/resolve', { method: 'POST', body: { input: handle } })).body.channel_id))));
    expect(resolved[0]!.every((id) => typeof id === 'string')).toBe(true);
    expect(resolved[1]).toEqual(resolved[0]);
    folderId = (await api(servers[0]!, '/api/folders', { method: 'POST', body: { name: 'World watch' } })).body.folder.id;
    expect((await api(servers[1]!, '/api/saved-channels', { method: 'POST', body: { channel_ids: resolved[0], folder_id: folderId } })).status).toBeLessThan(300);
    const onFirst = await figures(servers[0]!);
    expect(onFirst.map((channel) => channel.channel_id).sort()).toEqual([...resolved[0]!].sort());
    expect(await figures(servers[1]!)).toEqual(onFirst);
    expect(await status()).toMatchObject({ world_seed: '9', world_channels: 400, world_arrived_channels: 0 });
  }, 60_000);

  it('moves every server when a CLI advances the world, and adds up two advances made at once', async () => {
    const before = await figures(servers[0]!);
    const advanced = JSON.parse(await fleet.cli(['--json', 'engine', 'world', 'advance', '1d']));
    const after = await figures(servers[0]!);
    expect(after).not.toEqual(before);
    expect(await figures(servers[1]!)).toEqual(after);

    const reports = (await Promise.all([fleet.cli(['--json', 'engine', 'world', 'advance', '1d']), fleet.cli(['--json', 'engine', 'world', 'advance', '1d'])])).map((text) => JSON.parse(text).world);
    const spans = reports.map((report: { from: string; to: string }) => [report.from, report.to]).sort();
    expect(spans[0]![0]).toBe(advanced.world.to);
    expect(spans[0]![1]).toBe(spans[1]![0]);
    const world = await status();
    expect(world.world_time).toBe(spans[1]![1]);
    expect(Date.parse(world.world_time) - Date.parse(advanced.world.from)).toBe(3 * 86_400_000);
    const [row] = await fleet.query<{ advanced_ms: string }>('SELECT advanced_ms FROM sample_world');
    expect(Number(row!.advanced_ms)).toBe(3 * 86_400_000);
    const moved = await figures(servers[1]!);
    expect(moved).not.toEqual(after);
    expect(await figures(servers[0]!)).toEqual(moved);
  }, 90_000);

  it('answers the same on a server started later', async () => {
    const late = await fleet.start(['--workers', '0']);
    expect(await figures(late)).toEqual(await figures(servers[0]!));
  }, 60_000);
});
