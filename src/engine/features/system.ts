import { VERSION } from '../../core/version.js';
import type { Handlers, PublicHandlers } from '../context.js';
import { healthChecks } from '../health.js';
import { dataDirPlatform } from '../platform/factory/open-platform.js';

const ACTIVE_STATES = "('queued', 'running', 'pending', 'processing')";
const JOB_COUNTS = `SELECT COALESCE(SUM(CASE WHEN state IN ${ACTIVE_STATES} THEN 1 ELSE 0 END), 0) AS active, COUNT(*) AS total FROM jobs WHERE user_id = ?`;

export const systemHandlers: Handlers = {
  async health(request) {
    const { problems, store } = await healthChecks(request.engine);
    const counts = (await request.engine.store.get<{ active: number; total: number }>(JOB_COUNTS, [request.user.userId]))!;
    return {
      status: problems.length > 0 ? 'degraded' : 'healthy',
      active_jobs: counts.active,
      total_jobs: counts.total,
      max_concurrent: request.limits.concurrentJobs,
      problems,
      version: VERSION,
      engine: 'embedded',
      platform: dataDirPlatform(request.engine.localSettings),
      store,
    };
  },
};

/** Open routes called without a key: the public part of their answer. */
export const publicHandlers: PublicHandlers = {
  async health(engine) {
    const { problems, store } = await healthChecks(engine);
    return { status: problems.length > 0 ? 'degraded' : 'healthy', version: VERSION, engine: 'embedded', store };
  },
};
