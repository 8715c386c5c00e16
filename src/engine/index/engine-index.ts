/**
 * The engine's index: what the service knows and since when, as opposed to the platform (what the
 * site shows now). Features read it through `engine.index()`; the service's own logic over it —
 * the terminated search, collab growth snapshots, alert triggers, the checks' stores — is service
 * code, whichever platform fed it.
 *
 * Today every part comes from the platform's seed (the sample world). The live platform's index
 * will put stores of its own behind the same interfaces (statistics from stored snapshots, the
 * collab graph and known channels from its sweeps, terminated channels it saw or imported).
 */
import type Database from 'better-sqlite3';
import type { KnownChannels } from './channels.js';
import type { CollabGraph } from './collab-graph.js';
import type { PrecheckedVerdicts } from './prechecked.js';
import type { IndexSeed } from './seed.js';
import type { StatisticsHistory } from './statistics.js';
import { denseSource, TerminatedReader } from './terminated/reader.js';
import { SAMPLE_LAYOUT } from './terminated/schema.js';

export interface EngineIndex {
  /** Names this edition of the index: it changes when the index starts afresh (a reseeded world). */
  readonly edition: string;
  readonly channels: KnownChannels;
  readonly statistics: StatisticsHistory;
  readonly collabs: CollabGraph;
  /** Terminated and deleted channels with their last figures, searched by keyword. */
  readonly terminated: TerminatedReader;
  readonly prechecked: PrecheckedVerdicts;
}

export function openIndex(db: Database.Database, seed: IndexSeed): EngineIndex {
  return {
    edition: seed.edition,
    channels: seed.channels,
    statistics: seed.statistics,
    collabs: seed.collabs,
    terminated: new TerminatedReader(db, denseSource(SAMPLE_LAYOUT, seed.terminated)),
    prechecked: seed.prechecked,
  };
}
