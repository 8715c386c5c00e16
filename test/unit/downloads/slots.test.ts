import fs from 'node:fs';
import { execaSync } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/engine/clock.js';
import { DownloadSlots, SLOT_LEASE_MS } from '../../../src/engine/features/downloads/slots.js';
import { openDatabase } from '../../../src/engine/store/database.js';
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
  return { db, clock: new ManualClock() };
}

describe('download slots', () => {
  it('frees a slot of a process of this machine that no longer runs, at once', () => {
    const { db, clock } = setup();
    const gone = execaSync('node', ['-e', 'process.stdout.write(String(process.pid))']).stdout;
    const dead = new DownloadSlots(db, clock, { host: 'here', pid: Number(gone) });
    const alive = new DownloadSlots(db, clock, { host: 'here', pid: process.pid });
    dead.acquire(1, 1000);
    alive.acquire(1, 1000);
    alive.freeDead();
    expect(alive.heldBy(1).map((slot) => slot.pid)).toEqual([process.pid]);
  });

  it('frees a slot of another machine only when its lease runs out, and a renewed lease holds', () => {
    const { db, clock } = setup();
    const elsewhere = new DownloadSlots(db, clock, { host: 'elsewhere', pid: 1 });
    const here = new DownloadSlots(db, clock, { host: 'here', pid: process.pid });
    const renewed = elsewhere.acquire(1, 1000);
    elsewhere.acquire(1, 1000);
    clock.advance(SLOT_LEASE_MS - 1);
    expect(elsewhere.renew(renewed)).toBe(true);
    here.freeDead();
    expect(here.heldBy(1)).toHaveLength(2);
    clock.advance(2);
    here.freeDead();
    expect(here.heldBy(1).map((slot) => slot.id)).toEqual([renewed]);
    expect(here.isLive(renewed)).toBe(true);
    clock.advance(SLOT_LEASE_MS);
    expect(here.isLive(renewed)).toBe(false);
    here.freeDead();
    expect(elsewhere.renew(renewed)).toBe(false);
  });
});
