import { VERSION } from '../../core/version.js';
import type { Handlers, PublicHandlers } from '../context.js';
import { healthProblems } from '../health.js';
import { dataDirPlatform } from '../platform/factory/open-platform.js';
import { RememberedReads } from '../store/change-watch.js';
import type { Settings } from '../store/settings.js';
import { preparedFor } from '../store/prepared.js';

const ACTIVE_STATES = "('queued', 'running', 'pending', 'processing')";

/**
 * What health reads from the database, remembered until it may have changed: a monitor polling
 * health reads no table while nothing moves.
 */
const healthReads = preparedFor((db) => {
  const jobCounts = db.prepare<[number], { active: number; total: number }>(
    `SELECT COALESCE(SUM(state IN ${ACTIVE_STATES}), 0) AS active, COUNT(*) AS total FROM jobs WHERE user_id = ?`,
  );
  return {
    jobCounts: new RememberedReads(db, (userId: number) => Object.freeze(jobCounts.get(userId)!)),
    platform: new RememberedReads(db, (settings: Settings) => dataDirPlatform(settings)),
  };
});

export const systemHandlers: Handlers = {
  health(request) {
    const { engine } = request;
    const problems = healthProblems(engine);
    const reads = healthReads(engine.db);
    const counts = reads.jobCounts.get(request.user.userId);
    return {
      status: problems.length > 0 ? 'degraded' : 'healthy',
      active_jobs: counts.active,
      total_jobs: counts.total,
      max_concurrent: request.limits.concurrentJobs,
      problems,
      version: VERSION,
      engine: 'embedded',
      platform: reads.platform.get(engine.settings),
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
