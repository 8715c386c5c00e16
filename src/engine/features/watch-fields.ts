/**
 * Fields of ours on answers about a live channel's figures over time: since when the engine has
 * watched it (its first read: there is no history before it) and when it last read it (the figures
 * and their 24h/48h/7d/30d windows are as of then). Answers on the sample platform have neither.
 */
import { isoTime } from '../clock.js';
import type { Coverage } from '../index/statistics.js';

export interface WatchFields {
  watched_since: string | null;
  figures_as_of: string | null;
}

export function watchFields(coverage: Coverage | null): WatchFields {
  return {
    watched_since: coverage ? isoTime(coverage.watched_since_ms) : null,
    figures_as_of: coverage ? isoTime(coverage.latest_ms) : null,
  };
}
