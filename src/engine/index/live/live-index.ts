/**
 * The index of a live data dir: stores of its own, filled by reads of the live platform
 * (recording-platform.ts) and the refresh sweep. It starts empty: the live platform brings no
 * seed, so there are no pre-checked verdicts, and history starts when a channel is first read.
 */
import type { Db } from '../../store/database.js';
import type { Store } from '../../store/store.js';
import type { EngineIndex } from '../engine-index.js';
import type { PrecheckedVerdicts } from '../prechecked.js';
import { LiveCollabGraph } from './collab-graph.js';
import { LiveKnownChannels } from './known-channels.js';
import { liveIndexRevision } from './read-recorder.js';
import { SnapshotStatistics } from './snapshot-statistics.js';
import { liveTerminated } from './terminated-part.js';

/** A live index never starts afresh: its edition is constant. */
export const LIVE_EDITION = 'live';

const NO_PRECHECKED: PrecheckedVerdicts = { edition: LIVE_EDITION, verdicts: () => [][Symbol.iterator]() };

/**
 * The live index on the engine's store (the data dir's SQLite file, or a fleet's PostgreSQL: every
 * server of a fleet reads and fills one index). Its terminated part stays on the data dir's file
 * (`db`) for now. `now` is the engine's clock: the terminated search counts `terminated_days_ago`
 * from its day.
 */
export function openLiveIndex(store: Store, db: Db, now: () => number): EngineIndex {
  return {
    edition: LIVE_EDITION,
    channels: new LiveKnownChannels(store),
    statistics: new SnapshotStatistics(store),
    collabs: new LiveCollabGraph(store),
    terminated: liveTerminated(db, now),
    prechecked: NO_PRECHECKED,
    revision: liveIndexRevision(store),
  };
}
