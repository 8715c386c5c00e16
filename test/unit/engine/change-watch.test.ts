/**
 * Reads remembered on the request path (folder lists, health's job counts and platform) are never stale: a write
 * through this connection is seen by the very next read, one by another connection from the next
 * turn of the event loop on.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { changeWatch } from '../../../src/engine/store/change-watch.js';
import { tempDataDir } from '../../support/engines.js';

const opened: Engine[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const engine of opened.splice(0)) engine.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function open(dataDir = tempDataDir()): Engine {
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  opened.push(engine);
  return engine;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function insertJob(engine: Engine, userId: number, state = 'queued'): void {
  engine.db
    .prepare("INSERT INTO jobs (kind, user_id, state, input, requested_at) VALUES ('test-kind', ?, ?, '{}', ?)")
    .run(userId, state, Date.now());
}

describe('change watch', () => {
  it('keeps its generation while nothing is written, on this turn and the next', async () => {
    const engine = open();
    const watch = changeWatch(engine.db);
    const first = watch.generation();
    engine.db.prepare('SELECT COUNT(*) FROM jobs').get();
    expect(watch.generation()).toBe(first);
    await nextTurn();
    expect(watch.generation()).toBe(first);
  });

  it('moves at once after a write through the same connection', async () => {
    const engine = open();
    const watch = changeWatch(engine.db);
    const before = watch.generation();
    await engine.settings.set('some_setting', 1);
    expect(watch.generation()).not.toBe(before);
  });

  it('moves on the next turn after another connection commits', async () => {
    const server = open();
    const watch = changeWatch(server.db);
    const before = watch.generation();
    const cli = open(server.dataDir);
    await cli.settings.set('some_setting', 1);
    await nextTurn();
    expect(watch.generation()).not.toBe(before);
  });
});

describe("health's remembered reads", () => {
  it('count a job queued through this engine in the very next answer', async () => {
    const engine = open();
    const { key } = await engine.identity.createUserWithKey('starter', []);
    const user = await engine.authenticate(key);
    expect(await engine.handle('health', {}, user)).toMatchObject({ active_jobs: 0, total_jobs: 0 });
    insertJob(engine, user.userId);
    expect(await engine.handle('health', {}, user)).toMatchObject({ active_jobs: 1, total_jobs: 1 });
    insertJob(engine, user.userId, 'completed');
    expect(await engine.handle('health', {}, user)).toMatchObject({ active_jobs: 1, total_jobs: 2 });
  });

  it("count a job queued by another process from the next request on, and keep users' counts apart", async () => {
    const server = open();
    const { key } = await server.identity.createUserWithKey('starter', []);
    const other = await server.identity.createUserWithKey('starter', []);
    const user = await server.authenticate(key);
    expect(await server.handle('health', {}, user)).toMatchObject({ total_jobs: 0 });
    const cli = open(server.dataDir);
    insertJob(cli, user.userId);
    await nextTurn();
    expect(await server.handle('health', {}, user)).toMatchObject({ active_jobs: 1, total_jobs: 1 });
    expect(await server.handle('health', {}, await server.authenticate(other.key))).toMatchObject({ active_jobs: 0, total_jobs: 0 });
  });

  it('answer the platform switched by another process from the next request on', async () => {
    const server = open();
    const { key } = await server.identity.createUserWithKey('starter', []);
    const user = await server.authenticate(key);
    expect(await server.handle('health', {}, user)).toMatchObject({ platform: 'sample' });
    const cli = open(server.dataDir);
    await cli.settings.set('platform', 'live');
    await nextTurn();
    expect(await server.handle('health', {}, user)).toMatchObject({ platform: 'live' });
  });
});

describe('remembered folder lists', () => {
  it('show a folder created, renamed or filled through this engine in the very next list', async () => {
    const engine = open();
    const user = await engine.authenticate((await engine.identity.createUserWithKey('starter', [])).key);
    expect(await engine.handle('folders.list', {}, user)).toMatchObject({ count: 0, folders: [] });
    const { folder } = await engine.handle('folders.create', { name: 'First' }, user);
    expect((await engine.handle('folders.list', {}, user)).folders).toEqual([folder]);
    await engine.handle('folders.rename', { id: folder.id, name: 'Renamed' }, user);
    expect((await engine.handle('folders.list', {}, user)).folders).toMatchObject([{ id: folder.id, name: 'Renamed', channel_count: 0 }]);
    const channel = (await engine.reseedWorld({ seed: 1, channels: 30, terminated: 10 })).sampleChannels(1)[0]!.channel_id;
    await engine.handle('saved.add', { channel_ids: [channel], folder_id: folder.id }, user);
    expect((await engine.handle('folders.list', {}, user)).folders).toMatchObject([{ id: folder.id, channel_count: 1 }]);
  });

  it("show another process's folder from the next request on, and keep users' lists apart", async () => {
    const server = open();
    const { key } = await server.identity.createUserWithKey('starter', []);
    const stranger = await server.authenticate((await server.identity.createUserWithKey('starter', [])).key);
    expect(await server.handle('folders.list', {}, await server.authenticate(key))).toMatchObject({ count: 0 });
    const cli = open(server.dataDir);
    await cli.handle('folders.create', { name: 'From the CLI' }, await cli.authenticate(key));
    await nextTurn();
    expect((await server.handle('folders.list', {}, await server.authenticate(key))).folders).toMatchObject([{ name: 'From the CLI' }]);
    expect(await server.handle('folders.list', {}, stranger)).toMatchObject({ count: 0, folders: [] });
  });

  it('hand each caller a list of its own, of folders no caller can change', async () => {
    const engine = open();
    const user = await engine.authenticate((await engine.identity.createUserWithKey('starter', [])).key);
    await engine.handle('folders.create', { name: 'B' }, user);
    await engine.handle('folders.create', { name: 'A' }, user);
    const first = (await engine.handle('folders.list', {}, user)).folders;
    first.sort((left, right) => left.name.localeCompare(right.name));
    expect(() => {
      first[0]!.name = 'changed';
    }).toThrow(TypeError);
    expect((await engine.handle('folders.list', {}, user)).folders.map((folder) => folder.name)).toEqual(['B', 'A']);
  });
});
