/**
 * `mcp --read-only` offers only tools that change nothing: every tool marked read-only is called
 * (with a real channel of the sample world where it takes one) and no table of the store differs
 * afterwards. The mark is the route's own (`effect` in the route table), not its HTTP method.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routes } from '../../src/core/routes.js';
import { checkIndex } from '../../src/engine/features/checks/check-index.js';
import { WRITE_PROBE_KEY } from '../../src/engine/health.js';
import { LocalService } from '../../src/engine/local-service.js';
import { toolNames } from '../../src/mcp/tool-names.js';
import { selectTools, toolTable } from '../../src/mcp/tool-table.js';
import { TOOLSETS } from '../../src/mcp/toolsets.js';
import { tempDataDir } from '../support/engines.js';

let dir: string;
let service: LocalService;
let channelId: string;

beforeAll(async () => {
  dir = tempDataDir();
  service = await LocalService.open({ dataDir: dir, jobRunner: { mode: 'none' } });
  // A small world: every table's rows are compared after each tool.
  const world = await service.engine.reseedWorld({ seed: 2, channels: 200, terminated: 50 });
  channelId = world.sampleChannels(5)[0]!.channel_id;
}, 120_000);
afterAll(async () => {
  await service?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every row of every table, as text (the store's whole state). */
function snapshot(): Record<string, string> {
  const db = new Database(path.join(dir, 'tubekit.db'), { readonly: true });
  try {
    const all = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`).all() as Array<{ name: string }>;
    // health_check's write probe is its own bookkeeping (proof the store takes writes), no user data;
    // rate_events counts every request, read or not, for the rate limiter (a pace, not a quota).
    // collab_growth (and its runs) caches growth figures derived from the platform's data, the same for everyone.
    const tables = all.filter(({ name }) => !['rate_events', 'collab_growth', 'collab_growth_runs'].includes(name));
    const rows = (name: string) => (db.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all() as Array<Record<string, unknown>>).filter((row) => !(name === 'settings' && row.key === WRITE_PROBE_KEY));
    return Object.fromEntries(tables.map(({ name }) => [name, JSON.stringify(rows(name))]));
  } finally {
    db.close();
  }
}

it('marks as read-only neither the live checks that store verdicts nor any route whose effect is a write', () => {
  const readOnly = new Set(selectTools({ readOnly: true, toolsets: new Set(TOOLSETS) }).map((tool) => tool.route).filter(Boolean));
  for (const name of ['monetization.ads', 'cms.check', 'monetization.external'] as const) expect(readOnly.has(name), name).toBe(false);
  for (const tool of toolTable().filter((entry) => entry.route)) {
    expect(tool.annotations.readOnlyHint, tool.name).toBe(routes[tool.route!].effect === 'read');
  }
});

it('changes no table when every read-only tool is called', async () => {
  // Whatever a first use of the engine sets up (the default user, the world, the checks' pre-checked index) is done before the snapshot.
  await service.call('folders.list', {});
  await checkIndex(service.engine);
  const before = snapshot();
  const changed: string[] = [];
  for (const tool of selectTools({ readOnly: true, toolsets: new Set(TOOLSETS) })) {
    if (!tool.route) continue;
    const example = { ...toolNames[tool.route].example };
    for (const key of Object.keys(example)) if (key === 'channel_id' || key === 'channel') example[key] = channelId;
    if ('wait_seconds' in example) example.wait_seconds = 0;
    await service.call(tool.route, example as never).catch(() => undefined);
    const after = snapshot();
    for (const table of Object.keys(after)) if (after[table] !== before[table]) changed.push(`${tool.name} changed ${table}`);
    Object.assign(before, after);
  }
  expect(changed).toEqual([]);
}, 120_000);
