/**
 * Which worker hosts are alive on this data dir (`job_workers`): every worker loop registers and
 * refreshes a heartbeat, so a CLI process can tell whether it needs to start one. A host whose
 * heartbeat is older than `staleMs` is presumed dead (killed processes cannot unregister).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../clock.js';
import { processAlive } from '../process-alive.js';
import { preparedFor } from '../store/prepared.js';
import type { Db } from '../store/database.js';

/** This machine's name, in host ids: pids are only comparable between hosts of one machine. */
const MACHINE = os.hostname().replace(/[/@]/g, '_');

/** Read by every health check: prepared once per connection. */
const liveHosts = preparedFor((db) => db.prepare<[number], WorkerHostRow>('SELECT * FROM job_workers WHERE heartbeat_at > ? ORDER BY started_at'));

export type WorkerHostMode = 'in-process' | 'detached' | 'foreground' | 'starting';

export interface WorkerHostRow {
  id: string;
  pid: number;
  mode: WorkerHostMode;
  started_at: number;
  heartbeat_at: number;
}

export class WorkerHosts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly staleMs: number,
  ) {}

  register(mode: WorkerHostMode): string {
    const id = `${mode}-${process.pid}-${randomUUID().slice(0, 8)}@${MACHINE}`;
    const now = this.clock.now();
    const run = this.db.transaction(() => {
      // A started worker fulfils every pending spawn reservation.
      this.db.prepare(`DELETE FROM job_workers WHERE mode = 'starting' OR heartbeat_at <= ?`).run(now - this.staleMs);
      this.db
        .prepare('INSERT INTO job_workers (id, pid, mode, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)')
        .run(id, process.pid, mode, now, now);
    });
    run.immediate();
    return id;
  }

  /** Refreshes a host's heartbeat; re-registers it if a peer pruned it as stale meanwhile. */
  beat(id: string, mode: WorkerHostMode): void {
    const now = this.clock.now();
    const changed = this.db.prepare('UPDATE job_workers SET heartbeat_at = ? WHERE id = ?').run(now, id).changes;
    if (changed === 0) {
      this.db
        .prepare('INSERT OR REPLACE INTO job_workers (id, pid, mode, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)')
        .run(id, process.pid, mode, now, now);
    }
  }

  unregister(id: string): void {
    this.db.prepare('DELETE FROM job_workers WHERE id = ?').run(id);
  }

  /**
   * Unregisters an idle host unless work arrived: one transaction, so a submit that commits
   * before it is seen here, and one that commits after it starts a new worker.
   */
  retireIfIdle(id: string, hasWork: () => boolean): boolean {
    const run = this.db.transaction(() => {
      if (hasWork()) return false;
      this.unregister(id);
      return true;
    });
    return run.immediate();
  }

  /**
   * Reserves the start of a detached worker unless a live host (or a recent reservation) exists.
   * True means the caller should start one now.
   */
  reserveSpawn(): boolean {
    const run = this.db.transaction(() => {
      const now = this.clock.now();
      const live = this.db
        .prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM job_workers WHERE heartbeat_at > ?')
        .get(now - this.staleMs)!.n;
      if (live > 0) return false;
      this.db.prepare('DELETE FROM job_workers WHERE heartbeat_at <= ?').run(now - this.staleMs);
      this.db
        .prepare(`INSERT INTO job_workers (id, pid, mode, started_at, heartbeat_at) VALUES (?, ?, 'starting', ?, ?)`)
        .run(`starting-${randomUUID().slice(0, 8)}`, process.pid, now, now);
      return true;
    });
    return run.immediate();
  }

  /**
   * Whether the host that took a lease is still there: its row present, its heartbeat fresh, and,
   * when it runs on this machine, its process still running. A pid means nothing across machines
   * (or containers sharing a data dir), so a host elsewhere is judged by its heartbeat alone.
   * A lease owner is `<host id>/<claim number>`; a host id ends with `@<machine>`.
   */
  holdsAlive(leaseOwner: string): boolean {
    const hostId = leaseOwner.split('/')[0]!;
    const host = this.db
      .prepare<[string, number], Pick<WorkerHostRow, 'pid'>>('SELECT pid FROM job_workers WHERE id = ? AND heartbeat_at > ?')
      .get(hostId, this.clock.now() - this.staleMs);
    if (host === undefined) return false;
    return !hostId.endsWith(`@${MACHINE}`) || processAlive(host.pid);
  }

  live(): WorkerHostRow[] {
    return liveHosts(this.db).all(this.clock.now() - this.staleMs);
  }
}
