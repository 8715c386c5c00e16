/**
 * A data dir whose `platform` setting is `live` opens the live platform through the factory (its
 * requests going to TUBEKIT_PLATFORM_ORIGIN here) and an index of its own; what needs the sample
 * world answers 501 not_implemented_on_live, never sample data.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Engine } from '../../../../../src/engine/engine.js';
import { dataDirPlatform } from '../../../../../src/engine/platform/factory/open-platform.js';
import { requireSimulation } from '../../../../../src/engine/platform/simulation.js';
import { tempDataDir } from '../../../../support/engines.js';
import { scanAll } from '../../../../support/live-reads.js';
import { type FixtureServer, startFixtureServer } from '../../../../support/platform-fixture-server.js';

const loaded = vi.hoisted(() => new Set<string>());
vi.mock('../../../../../src/engine/platform/sample/open.js', async (importOriginal) => {
  loaded.add('sample');
  return importOriginal();
});

let dataDir: string;
let engine: Engine;
let server: FixtureServer;

beforeEach(async () => {
  server = await startFixtureServer([
    { method: 'POST', path: '/youtubei/v1/navigation/resolve_url', key: { url: 'https://www.youtube.com/@cozycookingjane' }, file: 'resolve-handle.json' },
  ]);
  vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', server.origin);
  dataDir = tempDataDir();
  engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
});

afterEach(async () => {
  engine.close();
  vi.unstubAllEnvs();
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('opens the sample world unless the data dir says live', async () => {
  expect(dataDirPlatform(engine.settings)).toBe('sample');
  engine.settings.set('platform', 'live');
  expect(dataDirPlatform(engine.settings)).toBe('live');
  const platform = await engine.platform();
  expect(platform.source).toBe('live');
  expect(loaded.has('sample')).toBe(false);
  const live = platform as unknown as { resolveChannelId(reference: string): Promise<string | null> };
  expect(await live.resolveChannelId('@cozycookingjane')).toBe('UCtubekitFixtureChannel1');
  expect(server.unmatched).toEqual([]);
});

it('opens the live index (empty: no seed) on a live data dir; the sample world answers 501 not_implemented_on_live', async () => {
  engine.settings.set('platform', 'live');
  const index = await engine.index();
  expect(index.edition).toBe('live');
  expect(await scanAll(index.channels.scan())).toEqual([]);
  expect([...index.prechecked.verdicts()]).toEqual([]);
  const platform = await engine.platform();
  expect(() => requireSimulation(platform, 'engine status')).toThrow(/engine status .*live platform/);
  expect(() => requireSimulation(platform)).toThrow(expect.objectContaining({ status: 501, code: 'not_implemented_on_live' }));
});
