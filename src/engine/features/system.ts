import { VERSION } from '../../core/version.js';
import type { Handlers } from '../context.js';
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
    const counts = jobCounts(db).get(request.user.userId)!;
    return {
      status: 'healthy',
      active_jobs: counts.active,
      total_jobs: counts.total,
      max_concurrent: request.limits.concurrentJobs,
      version: VERSION,
      engine: 'embedded',
      platform: dataDirPlatform(request.engine.settings),
    };
  },
};
