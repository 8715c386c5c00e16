/**
 * What a platform hands the index when a data dir opens: what the hosted service would already
 * know of it. The sample world seeds every part, as views over the tables it generated, derived
 * on demand (copying a million channels' history would cost far more than reading it). A live
 * platform brings no such knowledge: its index fills its own stores from the reads it makes.
 */
import type { SeedChannels } from './channels.js';
import type { SeedCollabs } from './collab-graph.js';
import type { PrecheckedVerdicts } from './prechecked.js';
import type { SeedStatistics } from './statistics.js';
import type { TerminatedNaming } from './terminated/naming.js';

/** The terminated database: tables of terminated/schema.ts already filled, and how to name their rows. */
export interface TerminatedSeed {
  naming: TerminatedNaming;
  /** Rows in the tables. */
  count: number;
  /** Words in the longest channel name. */
  longestName: number;
  /** Day number of the platform's "today" (days since 1970-01-01). */
  today(): number;
}

export interface IndexSeed {
  /** Names this seed: it changes when the seed is rebuilt (a reseeded world), so stores derived from it start afresh. */
  readonly edition: string;
  readonly channels: SeedChannels;
  readonly statistics: SeedStatistics;
  readonly collabs: SeedCollabs;
  readonly terminated: TerminatedSeed;
  readonly prechecked: PrecheckedVerdicts;
}
