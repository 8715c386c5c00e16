/**
 * What keeps the service from doing its work, for `GET /api/health`: no worker alive while jobs
 * wait, no ffmpeg, a database that refuses writes, a disk nearly full. Each problem is named with
 * its check and a sentence saying what it breaks; none means healthy.
 */
import fs from 'node:fs';
import type { EngineContext } from './context.js';
import { hasFault } from './faults.js';
import { ffmpegProbed } from './speech/decode.js';
import { DISK_FULL_FAULT } from './store/disk-space.js';

export type HealthCheck = 'workers' | 'ffmpeg' | 'database' | 'disk';
export interface HealthProblem {
  check: HealthCheck;
  message: string;
}

/** A job waiting this long with no worker alive means nobody will run it. */
export const STUCK_WAIT_MS = 60_000;
/** The disk is nearly full below both: 2 GiB free and 5 % of its size. */
const LOW_FREE_BYTES = 2 * 1024 ** 3;
const LOW_FREE_RATIO = 0.05;
/** Checks are made at most this often: a monitor polling faster sees the last answer. */
const CHECK_EVERY_MS = 1_000;
export const WRITE_PROBE_KEY = 'health_write_probe';

export interface StoreHealth {
  kind: 'sqlite' | 'postgres';
  reachable: boolean;
  schema_version: number | null;
}

const memo = new WeakMap<EngineContext, { at: number; checks: Promise<{ problems: HealthProblem[]; store: StoreHealth }> }>();

/** The problems and the store's state, checked at most once a second (concurrent callers share one check). */
export function healthChecks(engine: EngineContext): Promise<{ problems: HealthProblem[]; store: StoreHealth }> {
  const last = memo.get(engine);
  const now = engine.clock.now();
  if (last && now >= last.at && now - last.at < CHECK_EVERY_MS) return last.checks;
  const checks = runChecks(engine);
  memo.set(engine, { at: now, checks });
  return checks;
}

async function runChecks(engine: EngineContext): Promise<{ problems: HealthProblem[]; store: StoreHealth }> {
  const store = await storeHealth(engine);
  // With the database away, the job checks cannot be made: the database problem says it all.
  const problems = store.reachable
    ? [await workersProblem(engine), await databaseProblem(engine), diskProblem(engine), ffmpegProblem()]
    : [{ check: 'database' as const, message: `The database (${engine.store.description}) cannot be reached: requests that need it answer 503 until it is back.` }, diskProblem(engine), ffmpegProblem()];
  return { problems: problems.filter((problem): problem is HealthProblem => problem !== undefined), store };
}

async function storeHealth(engine: EngineContext): Promise<StoreHealth> {
  try {
    return { kind: engine.store.dialect, reachable: true, schema_version: await engine.store.schemaVersion() };
  } catch {
    return { kind: engine.store.dialect, reachable: false, schema_version: null };
  }
}

/** Not waited for: a health call never pays for starting ffmpeg; until the probe has answered, nothing is said. */
function ffmpegProblem(): HealthProblem | undefined {
  if (ffmpegProbed() !== false) return undefined;
  return { check: 'ffmpeg', message: 'ffmpeg is not installed where the engine runs: video and audio downloads answer 503 (subtitles still work).' };
}

async function workersProblem(engine: EngineContext): Promise<HealthProblem | undefined> {
  const waiting = (await engine.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'pending') AND requested_at <= ?`, [engine.clock.now() - STUCK_WAIT_MS]))!.n;
  if (waiting === 0 || (await engine.jobs.hosts.live()).length > 0) return undefined;
  return {
    check: 'workers',
    message: `${waiting} job${waiting === 1 ? ' has' : 's have'} waited over a minute and no worker is alive to run ${waiting === 1 ? 'it' : 'them'}: start one with \`tubekit engine worker\`, or run \`tubekit serve\`.`,
  };
}

/** A real write (one settings row): a read-only file, a full disk or a broken database all refuse it. */
async function databaseProblem(engine: EngineContext): Promise<HealthProblem | undefined> {
  try {
    await engine.settings.set(WRITE_PROBE_KEY, engine.clock.now());
    return undefined;
  } catch (error) {
    return { check: 'database', message: `The database refuses writes (${(error as Error).message}): nothing can be saved until it does.` };
  }
}

function diskProblem(engine: EngineContext): HealthProblem | undefined {
  if (hasFault(engine.settings, DISK_FULL_FAULT)) {
    return { check: 'disk', message: 'The disk holding the data dir is full (the disk-full fault is set): writes answer 507.' };
  }
  const stats = fs.statfsSync(engine.dataDir, { bigint: false });
  const free = stats.bavail * stats.bsize;
  const size = stats.blocks * stats.bsize;
  if (free >= LOW_FREE_BYTES || free >= size * LOW_FREE_RATIO) return undefined;
  return { check: 'disk', message: `The disk holding the data dir is nearly full (${Math.round(free / 1024 ** 2)} MB free of ${Math.round(size / 1024 ** 3)} GB): writes will soon answer 507.` };
}
