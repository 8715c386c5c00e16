/**
 * The known-collab index behind the feed: windows of it are what the stored rows say, and it is
 * read again whenever the world's clock moves — in this process or in another one on the same file.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SampleWorld } from '../../../src/engine/platform/sample/index.js';
import { tempDataDir } from '../../support/engines.js';

const DAY = 86_400_000;

/** The stored rows of the window, with their members host first: what the index must give. */
function stored(db: Database.Database, fromMs: number, toMs: number) {
  const rows = db
    .prepare<[number, number], { video_id: string; published_ms: number }>(
      'SELECT video_id, published_ms FROM world_collabs WHERE known = 1 AND published_ms > ? AND published_ms <= ? ORDER BY published_ms DESC, video_id',
    )
    .all(fromMs, toMs);
  const members = db.prepare<[string], number>('SELECT channel_idx FROM world_collab_members WHERE video_id = ? ORDER BY is_host DESC, channel_idx').pluck();
  return rows.map((row) => ({ ...row, members: members.all(row.video_id) }));
}

const read = (world: SampleWorld, fromMs: number, toMs: number) =>
  world.collabs.knownPublished(fromMs, toMs).map(({ video_id, published_ms, members }) => ({ video_id, published_ms, members }));

describe('the known-collab index', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives exactly the stored collabs of any window, newest first, as the world moves', () => {
    const db = new Database(':memory:');
    const world = SampleWorld.ensure(db, { seed: 'collab-index', channels: 600, terminated: 50, referenceDate: '2026-11-21' });
    const check = () => {
      const now = world.nowMs();
      for (const [from, to] of [[now - 7 * DAY, now], [now - 90 * DAY, now], [now - 30 * DAY, now - 29 * DAY], [now, now + 30 * DAY], [now - 1, now - 1]]) {
        expect(read(world, from!, to!)).toEqual(stored(db, from!, to!));
      }
      return read(world, now - 90 * DAY, now + 90 * DAY).length;
    };
    const before = check();
    world.advance(20 * DAY);
    expect(check()).toBeGreaterThan(before); // collabs announced meanwhile are in the index
  });

  it('sees collabs another process recorded when it moved the world', () => {
    dir = tempDataDir();
    const file = path.join(dir, 'world.db');
    const mine = new Database(file);
    const world = SampleWorld.ensure(mine, { seed: 'collab-index', channels: 600, terminated: 50, referenceDate: '2026-11-21' });
    const now = world.nowMs();
    const before = read(world, now - 90 * DAY, now + 90 * DAY);

    const theirs = new Database(file);
    SampleWorld.open(theirs)!.advance(20 * DAY);
    theirs.close();
    return new Promise<void>((resolve) => {
      // The clock is read once per turn of the event loop: the next turn sees the other process's move.
      setImmediate(() => {
        const later = world.nowMs();
        expect(later).toBe(now + 20 * DAY);
        const after = read(world, now - 90 * DAY, later + 90 * DAY);
        expect(after.length).toBeGreaterThan(before.length);
        expect(after).toEqual(stored(mine, now - 90 * DAY, later + 90 * DAY));
        mine.close();
        resolve();
      });
    });
  });
});
