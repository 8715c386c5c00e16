/**
 * The queue's clockwork. Defaults suit real use; tests and benchmarks shrink them (a short lease
 * makes a killed worker's job come back within a second).
 */
export interface JobTiming {
  /** How long a claim stays valid without a heartbeat. */
  leaseMs: number;
  /** How often a running job renews its lease (well under leaseMs). */
  heartbeatMs: number;
  /** Claims before a job whose workers keep dying is failed. */
  maxAttempts: number;
  /** How often an idle worker looks for jobs enqueued by other processes. */
  idlePollMs: number;
  /** How often a long-poll re-reads the job (cross-process completion; ~100 ms wake-up budget). */
  waitPollMs: number;
  /**
   * How often a worker host says it is alive, and when silence means it is dead. Keep hostStaleMs
   * below leaseMs: by the time a dead worker's lease expires, it must no longer count as alive,
   * or nobody would start a worker to take the job up again.
   */
  hostHeartbeatMs: number;
  hostStaleMs: number;
  /** How long `engine worker --until-idle` lingers with nothing to do before it exits. */
  idleExitMs: number;
  /** A job whose platform could not be reached tries again this many times, waiting platformRetryMs, then twice that. */
  platformRetries: number;
  platformRetryMs: number;
  /** A vision model's server error (or a 429 that names no wait) is tried again after modelRetryMs, then twice that. */
  modelRetryMs: number;
}

export const defaultJobTiming: JobTiming = {
  leaseMs: 15_000,
  heartbeatMs: 3_000,
  maxAttempts: 3,
  idlePollMs: 100,
  waitPollMs: 25,
  hostHeartbeatMs: 1_000,
  hostStaleMs: 5_000,
  idleExitMs: 15_000,
  platformRetries: 2,
  platformRetryMs: 2_000,
  modelRetryMs: 1_000,
};

export function resolveJobTiming(overrides: Partial<JobTiming> = {}): JobTiming {
  const timing = { ...defaultJobTiming, ...overrides };
  if (overrides.leaseMs !== undefined && overrides.heartbeatMs === undefined) {
    timing.heartbeatMs = Math.max(10, Math.floor(timing.leaseMs / 4));
  }
  return timing;
}
