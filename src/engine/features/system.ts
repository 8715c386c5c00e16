import { VERSION } from '../../core/version.js';
import type { Handlers, PublicHandlers } from '../context.js';
import { healthProblems } from '../health.js';
import { dataDirPlatform } from '../platform/factory/open-platform.js';
import { preparedFor } from '../store/prepared.js';

const ACTIVE_STATES = "('queued', 'running', 'pending', 'processing')";

const jobCounts = preparedFor((db) =>
  db.prepare<[number], { active: number; total: number }>(
    `SELECT COALESCE(SUM(state IN ${ACTIVE_STATES}), 0) AS active, COUNT(*) AS total FROM jobs WHERE user_id = ?`,
  ),
);

export const systemHandlers: Handlers = {
  health(request) {
    const { db } = request.engine;
    const problems = healthProblems(request.engine);
    const counts = jobCounts(db).get(request.user.userId)!;
    return {
      status: problems.length > 0 ? 'degraded' : 'healthy',
      active_jobs: counts.active,
      total_jobs: counts.total,
      max_concurrent: request.limits.concurrentJobs,
      problems,
      version: VERSION,
      engine: 'embedded',
      platform: dataDirPlatform(request.engine.settings),
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
