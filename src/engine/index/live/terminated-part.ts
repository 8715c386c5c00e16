/**
 * The terminated channels of a live index: the live terminated store (index/terminated/live-*.ts),
 * filled by what the refresh sweep found terminated or deleted (features/refresh/
 * record-terminations.ts) and by `engine import terminated`. `engine.terminated()` opens the same
 * store on its own, for searches that need nothing else of the live index.
 */
import type { Db } from '../../store/database.js';
import { SqliteLiveTerminated } from '../terminated/sqlite-live-terminated.js';
import type { TerminatedIndex } from '../engine-index.js';

/** The data dir's store; an engine on PostgreSQL puts its own (the fleet's) in the index instead (engine.ts). */
export function liveTerminated(db: Db, now: () => number): TerminatedIndex {
  return new SqliteLiveTerminated(db, now);
}
