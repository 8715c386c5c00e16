/**
 * Parallel download slots: one row per download in progress, counted per user. A slot is a
 * lease its process renews while it works; a slot whose process is gone (same machine: its pid
 * no longer runs) or whose lease ran out (a process elsewhere went silent) is freed by the next
 * request, so a killed CLI or server never keeps a user's slot.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../../clock.js';
import { processAlive } from '../../process-alive.js';
import type { Db } from '../../store/database.js';

export const SLOT_LEASE_MS = 30_000;
export const SLOT_HEARTBEAT_MS = 5_000;

export interface SlotRow {
  id: string;
  user_id: number;
  host: string;
  pid: number;
  acquired_at: number;
  expected_done_at: number;
  lease_expires_at: number;
}

const HOST = os.hostname();

export class DownloadSlots {
  private readonly all;
  private readonly held;
  private readonly insert;
  private readonly renewLease;
  private readonly remove;
  private readonly byId;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly identity = { host: HOST, pid: process.pid },
  ) {
    this.all = db.prepare<[], SlotRow>('SELECT * FROM download_slots');
    this.held = db.prepare<[number], SlotRow>('SELECT * FROM download_slots WHERE user_id = ? ORDER BY expected_done_at');
    this.insert = db.prepare('INSERT INTO download_slots (id, user_id, host, pid, acquired_at, expected_done_at, lease_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.renewLease = db.prepare('UPDATE download_slots SET lease_expires_at = ?, expected_done_at = coalesce(?, expected_done_at) WHERE id = ?');
    this.remove = db.prepare('DELETE FROM download_slots WHERE id = ?');
    this.byId = db.prepare<[string], SlotRow>('SELECT * FROM download_slots WHERE id = ?');
  }

  /** Frees slots whose holder died; run inside the caller's write transaction. */
  freeDead(): void {
    const now = this.clock.now();
    for (const slot of this.all.all()) {
      if (!this.alive(slot, now)) this.remove.run(slot.id);
    }
  }

  heldBy(userId: number): SlotRow[] {
    return this.held.all(userId);
  }

  acquire(userId: number, expectedMs: number): string {
    const now = this.clock.now();
    const id = randomUUID();
    this.insert.run(id, userId, this.identity.host, this.identity.pid, now, now + expectedMs, now + SLOT_LEASE_MS);
    return id;
  }

  /** False when the slot is gone (freed as dead meanwhile). `expectedDoneAt`: a better guess of its end (a fetch's own ETA). */
  renew(id: string, expectedDoneAt?: number): boolean {
    return this.renewLease.run(this.clock.now() + SLOT_LEASE_MS, expectedDoneAt ?? null, id).changes > 0;
  }

  release(id: string): void {
    this.remove.run(id);
  }

  isLive(id: string | null): boolean {
    const slot = id ? this.byId.get(id) : undefined;
    return slot !== undefined && this.alive(slot, this.clock.now());
  }

  private alive(slot: SlotRow, now: number): boolean {
    if (slot.lease_expires_at <= now) return false;
    return slot.host !== this.identity.host || processAlive(slot.pid);
  }
}
