import fs from 'node:fs';
import { execaSync } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/engine/clock.js';
import { DownloadSlots, SLOT_LEASE_MS } from '../../../src/engine/features/downloads/slots.js';
import { openDatabase } from '../../../src/engine/store/database.js';
import { SqliteStore } from '../../../src/engine/store/sqlite-store.js';
import { tempDataDir } from '../../support/engines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = tempDataDir();
  dirs.push(dir);
  const db = openDatabase(`${dir}/tubekit.db`);
  db.prepare("INSERT INTO users (id, name, plan, created_at) VALUES (1, 'u', 'starter', 0)").run();
  return { db: new SqliteStore(db), clock: new ManualClock() };
}

describe('download slots', () => {
  it('frees a slot of a process of this machine that no longer runs, at once', async () => {
    const { db, clock } = setup();
    const gone = execaSync('node', ['-e', 'process.stdout.write(String(process.pid))']).stdout;
    const dead = new DownloadSlots(db, clock, { host: 'here', pid: Number(gone) });
    const alive = new DownloadSlots(db, clock, { host: 'here', pid: process.pid });
    await dead.acquire(db, 1, 1000);
    await alive.acquire(db, 1, 1000);
    await alive.freeDead(db);
    expect((await alive.heldBy(db, 1)).map((slot) => slot.pid)).toEqual([process.pid]);
  });

  it('frees a slot of another machine only when its lease runs out, and a renewed lease holds', async () => {
    const { db, clock } = setup();
    const elsewhere = new DownloadSlots(db, clock, { host: 'elsewhere', pid: 1 });
    const here = new DownloadSlots(db, clock, { host: 'here', pid: process.pid });
    const renewed = await elsewhere.acquire(db, 1, 1000);
    await elsewhere.acquire(db, 1, 1000);
    clock.advance(SLOT_LEASE_MS - 1);
    expect(await elsewhere.renew(renewed)).toBe(true);
    await here.freeDead(db);
    expect((await here.heldBy(db, 1))).toHaveLength(2);
    clock.advance(2);
    await here.freeDead(db);
    expect((await here.heldBy(db, 1)).map((slot) => slot.id)).toEqual([renewed]);
    expect(await here.isLive(db, renewed)).toBe(true);
    clock.advance(SLOT_LEASE_MS);
    expect(await here.isLive(db, renewed)).toBe(false);
    await here.freeDead(db);
    expect(await elsewhere.renew(renewed)).toBe(false);
  });
});
