/**
 * The engine's index: what the service knows and since when, as opposed to the platform (what the
 * site shows now). Features read it through `engine.index()`; the service's own logic over it —
 * the terminated search, collab growth snapshots, alert triggers, the checks' stores — is service
 * code, whichever platform fed it.
 *
 * On the sample platform every part comes from the world's seed. On the live platform the parts
 * are stores of the index's own (live/), filled by every read of the platform and by the refresh
 * sweep: statistics from stored snapshots, known channels and the collab graph from reads.
 */
import type Database from 'better-sqlite3';
import type { KnownChannels } from './channels.js';
import type { CollabGraph } from './collab-graph.js';
import type { PrecheckedVerdicts } from './prechecked.js';
import type { IndexSeed } from './seed.js';
import { seedChannels, seedCollabs, seedStatistics } from './seed-index.js';
import type { StatisticsHistory } from './statistics.js';
import { denseSource, TerminatedReader } from './terminated/reader.js';
import { SAMPLE_LAYOUT } from './terminated/schema.js';

export type { TerminatedIndex } from './terminated/live-repository.js';
import type { TerminatedIndex } from './terminated/live-repository.js';

/** A synchronous reader (the sample world's, on SQLite) as the asynchronous TerminatedIndex features use. */
export function asyncTerminated(reader: Pick<TerminatedReader, 'search' | 'byId'>): TerminatedIndex {
  return {
    search: async (query) => reader.search(query),
    byId: async (channelId) => reader.byId(channelId),
  };
}

/** Where the index is filled by reads (live): storing several reads at once. */
export interface ReadRecording {
  /** Runs `work`, storing every platform read it makes in one transaction if it succeeds, and none if it fails. */
  together<T>(work: () => Promise<T>): Promise<T>;
  /** Notes that the refresh sweep scanned the channel's uploads for collabs (with the reads of `together`, inside one). */
  collabScanned(channelId: string): Promise<void>;
}

export interface EngineIndex {
  /** Names this edition of the index: it changes when the index starts afresh (a reseeded world). */
  readonly edition: string;
  readonly channels: KnownChannels;
  readonly statistics: StatisticsHistory;
  readonly collabs: CollabGraph;
  /** Terminated and deleted channels with their last figures, searched by keyword. */
  readonly terminated: TerminatedIndex;
  readonly prechecked: PrecheckedVerdicts;
  /**
   * Present where reads fill the index (live): changes whenever it may have changed, so caches
   * over it (channel names, feed windows) know when to read again. The sample world's index
   * changes only with its clock.
   */
  revision?(): string;
  /** Present where reads fill the index (live). */
  readonly reads?: ReadRecording;
}

/** The index a platform's seed makes (sample); a platform that brings none has the live index (live/live-index.ts). */
export function openIndex(db: Database.Database, seed: IndexSeed): EngineIndex {
  return {
    edition: seed.edition,
    channels: seedChannels(seed.channels),
    statistics: seedStatistics(seed.statistics),
    collabs: seedCollabs(seed.collabs),
    terminated: asyncTerminated(new TerminatedReader(db, denseSource(SAMPLE_LAYOUT, seed.terminated))),
    prechecked: seed.prechecked,
  };
}
