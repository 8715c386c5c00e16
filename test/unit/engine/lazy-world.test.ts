/**
 * The sample world is loaded on first use: a call that reads no channel (`folders list`) loads
 * none of its code, which is most of what a CLI start-up would otherwise parse. The world's modules
 * are watched through vi.mock: each factory notes that its module was asked for and hands out the
 * real one. A static import of the world by the engine (or by anything `folders list` loads) asks
 * for them as this file's imports load, before any test runs.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { LocalService } from '../../../src/engine/local-service.js';
import { tempDataDir } from '../../support/engines.js';

const loaded = vi.hoisted(() => new Set<string>());
vi.mock('../../../src/engine/platform/sample/sample-world.js', async (importOriginal) => {
  loaded.add('sample-world');
  return importOriginal();
});
vi.mock('../../../src/engine/platform/sample/generate.js', async (importOriginal) => {
  loaded.add('generate');
  return importOriginal();
});

const SMALL_WORLD = { seed: 1, channels: 40, terminated: 0 };
let dataDir: string;
let engine: Engine;

beforeEach(() => {
  dataDir = tempDataDir();
  engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  engine.settings.set('world', SMALL_WORLD);
});

afterEach(() => {
  engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const worldTables = () => engine.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'world%'").pluck().all();

it('answers folders list without loading or building the world, and loads it on the first read of the platform', async () => {
  const service = new LocalService(engine);
  await service.call('folders.create', { name: 'Ideas' });
  expect((await service.call('folders.list', {})).folders.map((folder) => folder.name)).toEqual(['Ideas']);
  expect([...loaded]).toEqual([]);
  expect(worldTables()).toEqual([]);

  const world = await engine.platform();
  expect(world.channelCount()).toBe(SMALL_WORLD.channels);
  expect([...loaded].sort()).toEqual(['generate', 'sample-world']);
});

it('builds the world once for concurrent first calls, and again after a build that failed', async () => {
  const { SampleWorld } = await import('../../../src/engine/platform/sample/sample-world.js');
  const ensure = vi.spyOn(SampleWorld, 'ensure').mockImplementationOnce(() => {
    throw new Error('disk full');
  });
  try {
    await expect(engine.platform()).rejects.toThrow('disk full');
    const [first, second] = await Promise.all([engine.platform(), engine.platform()]);
    expect(first).toBe(second);
    expect(ensure).toHaveBeenCalledTimes(2);
    expect(await engine.platform()).toBe(first);

    const reseeded = await engine.reseedWorld({ ...SMALL_WORLD, channels: 30 });
    expect(reseeded).not.toBe(first);
    expect(await engine.platform()).toBe(reseeded);
    expect(reseeded.channelCount()).toBe(30);
  } finally {
    ensure.mockRestore();
  }
});
