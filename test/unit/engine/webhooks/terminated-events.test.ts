/** channel.terminated: written with the read that first finds a saved channel gone, once per state. */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../../../src/engine/engine.js';
import { recordReads } from '../../../../src/engine/index/live/read-recorder.js';
import { LocalService } from '../../../../src/engine/local-service.js';
import { tempDataDir } from '../../../support/engines.js';

let engine: Engine;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDataDir();
  engine = await Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  await engine.reseedWorld({ seed: 3, channels: 200 });
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('records channel.terminated for each user saving the channel, when a read first finds it gone', async () => {
  const [saved, other] = (await engine.platform()).sampleChannels(2).map((channel) => channel.channel_id);
  const watcher = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
  const bystander = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
  const { folder } = await watcher.call('folders.create', { name: 'Watched' });
  await watcher.call('saved.add', { channel_ids: [saved!], folder_id: folder.id });
  const gone = (channelId: string, state: 'terminated' | 'missing', atMs: number) => ({ read: { gone: { channel_id: channelId, state, reason: state === 'terminated' ? 'violated the rules' : null } }, atMs });
  const at = Date.UTC(2026, 10, 20);

  await recordReads(engine.store, [gone(saved!, 'terminated', at), gone(other!, 'terminated', at)], () => null);
  // Read again in the same state: nothing new to tell.
  await recordReads(engine.store, [gone(saved!, 'terminated', at + 3_600_000)], () => null);
  const { events } = await watcher.call('events.list', {});
  expect(events).toEqual([
    expect.objectContaining({ type: 'channel.terminated', timestamp: new Date(at).toISOString(), data: { channel_id: saved, handle: null, title: null, state: 'terminated', reason: 'violated the rules', found_at: new Date(at).toISOString() } }),
  ]);
  expect((await bystander.call('events.list', {})).events).toEqual([]);

  // A read that fails to store (here: a read of another kind breaking the transaction) leaves no event either.
  await expect(recordReads(engine.store, [gone(saved!, 'missing', at + 7_200_000), { read: { listed: [null as never] }, atMs: at }], () => null)).rejects.toThrow();
  expect((await watcher.call('events.list', {})).events).toHaveLength(1);
  await recordReads(engine.store, [gone(saved!, 'missing', at + 7_200_000)], () => null);
  expect((await watcher.call('events.list', {})).events.map((event) => (event.data as { state: string }).state)).toEqual(['terminated', 'missing']);
});
