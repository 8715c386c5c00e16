/**
 * The managed-network verdicts the hosted service already holds when a data dir starts: the
 * checks copy them into their store (features/checks/check-index.ts) once per edition.
 */
import type { NetworkOwner } from '../platform/networks.js';

/** One pre-checked verdict, with the channel figures it holds. */
export interface PrecheckedVerdict {
  channel_id: string;
  /** Null: the pre-check found the channel not managed. */
  owner: NetworkOwner | null;
  /** Milliseconds since the epoch. */
  checked_at: number;
  title: string;
  subscribers: number;
  total_views: number;
  video_count: number;
  language: string;
  category: string;
}

export interface PrecheckedVerdicts {
  /** Names this set of verdicts: it changes whenever they are rebuilt (a reseeded world). */
  readonly edition: string;
  /** Every verdict, in channel order. */
  verdicts(): IterableIterator<PrecheckedVerdict>;
}
