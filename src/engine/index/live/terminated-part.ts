/**
 * The terminated channels of a live index. Their store (the terminated tables filled by what the
 * sweep saw terminated and by `engine import terminated`) is built on another branch (h-terminated);
 * until it is connected here, a live index knows no terminated record and its search answers 501
 * `not_implemented_on_live`, as it did before the live index existed. The sweep keeps each
 * terminated channel's state and last snapshots meanwhile (live_channels), and hands the records to
 * its termination sink (features/refresh/record-terminations.ts).
 */
import { notImplementedOnLive } from '../../../core/errors.js';
import type { Db } from '../../store/database.js';
import type { TerminatedIndex } from '../engine-index.js';

export function liveTerminated(_db: Db): TerminatedIndex {
  return {
    byId: () => null,
    search: () => {
      throw notImplementedOnLive('Terminated-channel search');
    },
  };
}
