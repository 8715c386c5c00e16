import { VERSION } from '../../core/version.js';
import type { EngineContext, Handlers, PublicHandlers } from '../context.js';
import { healthProblems } from '../health.js';
import { dataDirPlatform } from '../platform/factory/open-platform.js';
import type { PlatformName } from '../platform/platform.js';
import { changeWatch } from '../store/change-watch.js';
import type { Db } from '../store/database.js';
import { preparedFor } from '../store/prepared.js';

const ACTIVE_STATES = "('queued', 'running', 'pending', 'processing')";

interface JobCounts {
  active: number;
  total: number;
}

/** Users whose counts are remembered at most; past this the memory is simply cleared. */
const REMEMBERED_USERS_MAX = 1_000;

/**
 * What health reads from the database (each user's job counts, the data dir's platform),
 * remembered until the database may have changed (store/change-watch.ts): a monitor polling
 * health reads no table while nothing moves, and never sees a stale count.
 */
class HealthReads {
  private readonly jobCounts;
  private generation = -1;
  private platformName: PlatformName | undefined;
  private readonly counts = new Map<number, JobCounts>();

  constructor(private readonly db: Db) {
    this.jobCounts = db.prepare<[number], JobCounts>(
      `SELECT COALESCE(SUM(state IN ${ACTIVE_STATES}), 0) AS active, COUNT(*) AS total FROM jobs WHERE user_id = ?`,
    );
  }

  /** These reads, forgotten first if the database may have changed since they were made. */
  current(): this {
    const generation = changeWatch(this.db).generation();
    if (generation !== this.generation) {
      this.generation = generation;
      this.platformName = undefined;
      this.counts.clear();
    }
    return this;
  }

  platform(engine: EngineContext): PlatformName {
    return (this.platformName ??= dataDirPlatform(engine.settings));
  }

  jobsOf(userId: number): JobCounts {
    let counts = this.counts.get(userId);
    if (counts === undefined) {
      counts = this.jobCounts.get(userId)!;
      if (this.counts.size >= REMEMBERED_USERS_MAX) this.counts.clear();
      this.counts.set(userId, counts);
    }
    return counts;
  }
}

const healthReads = preparedFor((db) => new HealthReads(db));

export const systemHandlers: Handlers = {
  health(request) {
    const { engine } = request;
    const problems = healthProblems(engine);
    const reads = healthReads(engine.db).current();
    const counts = reads.jobsOf(request.user.userId);
    return {
      status: problems.length > 0 ? 'degraded' : 'healthy',
      active_jobs: counts.active,
      total_jobs: counts.total,
      max_concurrent: request.limits.concurrentJobs,
      problems,
      version: VERSION,
      engine: 'embedded',
      platform: reads.platform(engine),
    };
  },
};

/** Open routes called without a key: the public part of their answer. */
export const publicHandlers: PublicHandlers = {
  health(engine) {
    const problems = healthProblems(engine);
    return { status: problems.length > 0 ? 'degraded' : 'healthy', version: VERSION, engine: 'embedded' };
  },
};
