import { VERSION } from '../../core/version.js';
import type { Handlers, PublicHandlers } from '../context.js';
import { healthChecks } from '../health.js';
import { dataDirPlatform } from '../platform/factory/open-platform.js';
import { RememberedReads, RememberedStoreReads } from '../store/change-watch.js';
import type { Settings } from '../store/settings.js';
import { preparedFor } from '../store/prepared.js';
import type { Store } from '../store/store.js';

const ACTIVE_STATES = "('queued', 'running', 'pending', 'processing')";
const JOB_COUNTS = `SELECT COALESCE(SUM(CASE WHEN state IN ${ACTIVE_STATES} THEN 1 ELSE 0 END), 0) AS active, COUNT(*) AS total FROM jobs WHERE user_id = ?`;

/**
 * A user's job counts, remembered until the store may have changed at all: a monitor polling
 * health reads no table while nothing moves (on SQLite; Postgres cannot see every write cheaply,
 * so there it reads each time).
 */
const rememberedCounts = new WeakMap<Store, RememberedStoreReads<number, Readonly<{ active: number; total: number }>>>();

function jobCounts(store: Store, userId: number): Promise<Readonly<{ active: number; total: number }>> {
  let reads = rememberedCounts.get(store);
  if (!reads) {
    reads = new RememberedStoreReads(store.changeSignal(), async (user: number) => Object.freeze((await store.get<{ active: number; total: number }>(JOB_COUNTS, [user]))!));
    rememberedCounts.set(store, reads);
  }
  return reads.get(userId);
}

/** The data dir's platform, remembered until its database changes. */
const rememberedPlatform = preparedFor((db) => new RememberedReads(db, (settings: Settings) => dataDirPlatform(settings)));

export const systemHandlers: Handlers = {
  async health(request) {
    const { engine } = request;
    const { problems, store } = await healthChecks(engine);
    const counts = await jobCounts(engine.store, request.user.userId);
    return {
      status: problems.length > 0 ? 'degraded' : 'healthy',
      active_jobs: counts.active,
      total_jobs: counts.total,
      max_concurrent: request.limits.concurrentJobs,
      problems,
      version: VERSION,
      engine: 'embedded',
      platform: rememberedPlatform(engine.db).get(engine.localSettings),
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
