/**
 * Which worker hosts are alive on this data dir (`job_workers`): every worker loop registers and
 * refreshes a heartbeat, so a CLI process can tell whether it needs to start one. A host whose
 * heartbeat is older than `staleMs` is presumed dead (killed processes cannot unregister).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Clock } from '../clock.js';
import { processAlive } from '../process-alive.js';
import type { Executor, Store, Transaction } from '../store/store.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const JOB_WORKERS_COLUMNS = 'id, pid, mode, started_at, heartbeat_at';

/** This machine's name, in host ids: pids are only comparable between hosts of one machine. */
const MACHINE = os.hostname().replace(/[/@]/g, '_');
/** Held while deciding whether to start a detached worker, so two CLI processes do not both start one. */
const SPAWN_LOCK = 'job-workers:spawn';

export type WorkerHostMode = 'in-process' | 'detached' | 'foreground' | 'starting';

export interface WorkerHostRow {
  id: string;
  pid: number;
  mode: WorkerHostMode;
  started_at: number;
  heartbeat_at: number;
}

/** A pid means something only on its own machine; elsewhere a fresh heartbeat is all there is. */
const hostLives = (hostId: string, pid: number) => !hostId.endsWith(`@${MACHINE}`) || processAlive(pid);

export class WorkerHosts {
  /**
   * Hosts whose worker loop runs in this process: alive by knowledge, whatever their heartbeat
   * row says. A heartbeat only speaks for other processes; here it can lag behind a clock that
   * jumps (a test's manual clock) or a timer delayed on a busy machine, and a job held by a
   * worker that is running must never be taken from it for that.
   */
  private readonly here = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly staleMs: number,
  ) {}

  /**
   * Registers a host; `runsHere` when its worker loop is in this process (see `here`);
   * `settingsDigest` the settings it runs jobs with (job-settings.ts).
   */
  async register(mode: WorkerHostMode, { runsHere = false, settingsDigest }: { runsHere?: boolean; settingsDigest?: string } = {}): Promise<string> {
    const id = `${mode}-${process.pid}-${randomUUID().slice(0, 8)}@${MACHINE}`;
    const now = this.clock.now();
    const digest = settingsDigest ?? null;
    await this.store.transaction(async (tx) => {
      await tx.lock(SPAWN_LOCK);
      // A started worker fulfils every pending spawn reservation made for its settings.
      await tx.run(`DELETE FROM job_workers WHERE (mode = 'starting' AND COALESCE(settings_digest, '') = COALESCE(?, '')) OR heartbeat_at <= ?`, [digest, now - this.staleMs]);
      await tx.run('INSERT INTO job_workers (id, pid, mode, started_at, heartbeat_at, settings_digest) VALUES (?, ?, ?, ?, ?, ?)', [id, process.pid, mode, now, now, digest]);
    });
    if (runsHere) this.here.add(id);
    return id;
  }

  /** Refreshes a host's heartbeat; re-registers it if a peer pruned it as stale meanwhile. */
  async beat(id: string, mode: WorkerHostMode, settingsDigest?: string): Promise<void> {
    const now = this.clock.now();
    await this.store.run(
      `INSERT INTO job_workers (id, pid, mode, started_at, heartbeat_at, settings_digest) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
      [id, process.pid, mode, now, now, settingsDigest ?? null],
    );
  }

  async unregister(id: string, on: Executor = this.store): Promise<void> {
    this.here.delete(id);
    await on.run('DELETE FROM job_workers WHERE id = ?', [id]);
  }

  /**
   * Unregisters an idle host unless work arrived: one transaction (under the spawn lock), so a
   * submit that commits before it is seen here, and one that commits after it starts a new worker.
   */
  async retireIfIdle(id: string, hasWork: (tx: Transaction) => Promise<boolean>): Promise<boolean> {
    const retired = await this.store.transaction(async (tx) => {
      await tx.lock(SPAWN_LOCK);
      if (await hasWork(tx)) return false;
      await tx.run('DELETE FROM job_workers WHERE id = ?', [id]);
      return true;
    });
    if (retired) this.here.delete(id);
    return retired;
  }

  /**
   * Reserves the start of a detached worker unless a live host (or a recent reservation) exists
   * that runs jobs with `settingsDigest` (any host, without one). True means the caller should
   * start one now.
   */
  reserveSpawn(settingsDigest?: string): Promise<boolean> {
    const digest = settingsDigest ?? null;
    return this.store.transaction(async (tx) => {
      await tx.lock(SPAWN_LOCK);
      const now = this.clock.now();
      const live = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM job_workers WHERE heartbeat_at > ? AND (CAST(? AS TEXT) IS NULL OR settings_digest = ?)', [now - this.staleMs, digest, digest]))!.n;
      if (Number(live) > 0) return false;
      await tx.run('DELETE FROM job_workers WHERE heartbeat_at <= ?', [now - this.staleMs]);
      await tx.run(`INSERT INTO job_workers (id, pid, mode, started_at, heartbeat_at, settings_digest) VALUES (?, ?, 'starting', ?, ?, ?)`, [`starting-${randomUUID().slice(0, 8)}`, process.pid, now, now, digest]);
      return true;
    });
  }

  /**
   * Whether the host that took a lease is still there: its row present, its heartbeat fresh, and,
   * when it runs on this machine, its process still running. A pid means nothing across machines
   * (or containers sharing a data dir), so a host elsewhere is judged by its heartbeat alone.
   * A lease owner is `<host id>/<claim number>`; a host id ends with `@<machine>`.
   */
  async holdsAlive(leaseOwner: string): Promise<boolean> {
    const hostId = leaseOwner.split('/')[0]!;
    if (this.here.has(hostId)) return true;
    const host = await this.store.get<Pick<WorkerHostRow, 'pid'>>('SELECT pid FROM job_workers WHERE id = ? AND heartbeat_at > ?', [hostId, this.clock.now() - this.staleMs]);
    return host !== undefined && hostLives(hostId, host.pid);
  }

  /** The same judgement for every lease at once, from one read of the live hosts. */
  async holdersAlive(): Promise<(leaseOwner: string) => boolean> {
    const live = new Map((await this.live()).map((host) => [host.id, host.pid]));
    const judged = new Map<string, boolean>();
    return (leaseOwner) => {
      const hostId = leaseOwner.split('/')[0]!;
      if (this.here.has(hostId)) return true;
      if (!judged.has(hostId)) judged.set(hostId, live.has(hostId) && hostLives(hostId, live.get(hostId)!));
      return judged.get(hostId)!;
    };
  }

  live(): Promise<WorkerHostRow[]> {
    return this.store.all<WorkerHostRow>(`SELECT ${JOB_WORKERS_COLUMNS} FROM job_workers WHERE heartbeat_at > ? ORDER BY started_at`, [this.clock.now() - this.staleMs]);
  }
}
