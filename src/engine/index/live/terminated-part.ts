/**
 * The terminated channels of a live index: the live terminated store (index/terminated/live-*.ts),
 * filled by what the refresh sweep found terminated or deleted (features/refresh/
 * record-terminations.ts) and by `engine import terminated`. `engine.terminated()` opens the same
 * store on its own, for searches that need nothing else of the live index.
 */
import type { Db } from '../../store/database.js';
import { openLiveTerminated } from '../terminated/live-source.js';
import type { TerminatedIndex } from '../engine-index.js';

export function liveTerminated(db: Db, now: () => number): TerminatedIndex {
  return openLiveTerminated(db, now);
}
