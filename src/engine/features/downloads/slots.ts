/**
 * Parallel download slots: one row per download in progress, counted per user. A slot is a
 * lease its process renews while it works; a slot whose process is gone (same machine: its pid
 * no longer runs) or whose lease ran out (a process elsewhere went silent) is freed by the next
 * request, so a killed CLI or server never keeps a user's slot. The rows are in the engine's store:
 * on a fleet's PostgreSQL, every machine's downloads count toward the same caps.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../../clock.js';
import { processAlive } from '../../process-alive.js';
import type { Executor, Store } from '../../store/store.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const DOWNLOAD_SLOTS_COLUMNS = 'id, user_id, host, pid, acquired_at, expected_done_at, lease_expires_at';

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
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly identity = { host: HOST, pid: process.pid },
  ) {}

  /** Frees slots whose holder died; run inside the caller's write transaction. */
  async freeDead(on: Executor): Promise<void> {
    const now = this.clock.now();
    for (const slot of await on.all<SlotRow>(`SELECT ${DOWNLOAD_SLOTS_COLUMNS} FROM download_slots`)) {
      if (!this.alive(slot, now)) await on.run('DELETE FROM download_slots WHERE id = ?', [slot.id]);
    }
  }

  heldBy(on: Executor, userId: number): Promise<SlotRow[]> {
    return on.all<SlotRow>(`SELECT ${DOWNLOAD_SLOTS_COLUMNS} FROM download_slots WHERE user_id = ? ORDER BY expected_done_at`, [userId]);
  }

  async acquire(on: Executor, userId: number, expectedMs: number): Promise<string> {
    const now = this.clock.now();
    const id = randomUUID();
    await on.run(
      'INSERT INTO download_slots (id, user_id, host, pid, acquired_at, expected_done_at, lease_expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, userId, this.identity.host, this.identity.pid, now, now + expectedMs, now + SLOT_LEASE_MS],
    );
    return id;
  }

  /** False when the slot is gone (freed as dead meanwhile). `expectedDoneAt`: a better guess of its end (a fetch's own ETA). */
  async renew(id: string, expectedDoneAt?: number): Promise<boolean> {
    const { changes } = await this.store.run('UPDATE download_slots SET lease_expires_at = ?, expected_done_at = coalesce(?, expected_done_at) WHERE id = ?', [
      this.clock.now() + SLOT_LEASE_MS,
      expectedDoneAt ?? null,
      id,
    ]);
    return changes > 0;
  }

  async release(on: Executor, id: string): Promise<void> {
    await on.run('DELETE FROM download_slots WHERE id = ?', [id]);
  }

  async isLive(on: Executor, id: string | null): Promise<boolean> {
    const slot = id ? await on.get<SlotRow>(`SELECT ${DOWNLOAD_SLOTS_COLUMNS} FROM download_slots WHERE id = ?`, [id]) : undefined;
    return slot !== undefined && this.alive(slot, this.clock.now());
  }

  private alive(slot: SlotRow, now: number): boolean {
    if (slot.lease_expires_at <= now) return false;
    return slot.host !== this.identity.host || processAlive(slot.pid);
  }
}
