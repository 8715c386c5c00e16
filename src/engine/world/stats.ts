/**
 * Daily statistics, derived (never stored) from a channel's growth model.
 *
 * The gain of each day is a pure function of (model, day number): a base
 * rate bent by the channel's trend, a weekly rhythm, log-normal noise, an
 * occasional viral spike and, for subscribers, a little signed jitter (so
 * subscriber gains are sometimes negative). Totals are then walked backwards
 * from the reference date, where they equal the channel row's current
 * `subscribers` / `total_views`:  total(d - 1) = max(0, total(d) - gain(d)).
 *
 * Every published figure (history, gains, growth, deltas) is a difference of
 * those totals, so they are consistent with each other by construction. The
 * recent past (the default 60 days, and anything within a year or so) is the
 * meaningful part; far back, the walk is an extrapolation clamped at zero.
 */
import { dayToIso, weekday } from './dates.js';
import { gaussHash, stochasticRound, unitHash } from './prng.js';
import type { DailyStat, Deltas, Growth, WorldChannel } from './types.js';

/** Default length of dailyStats() (days, ending at the reference date). */
export const DEFAULT_HISTORY_DAYS = 60;

/** The part of a channel that daily stats depend on. */
export type StatsChannel = Pick<WorldChannel, 'subscribers' | 'total_views' | 'created_at' | 'model'>;

const TREND_HORIZON_DAYS = 180;

interface Spike {
  day: number; // days before the reference date
  amplitude: number;
  tau: number;
}

function spikeOf(noise: number): Spike | null {
  if (unitHash(noise, 11) >= 0.15) return null;
  return {
    day: Math.floor(unitHash(noise, 12) * 80),
    amplitude: 2 + 18 * unitHash(noise, 13) ** 2,
    tau: 1.5 + 4 * unitHash(noise, 14),
  };
}

/** Subscriber and view gains of `day` (a day number), i.e. change from end of day-1 to end of day. */
function dailyGains(ch: StatsChannel, refDay: number, day: number, spike: Spike | null): [subs: number, views: number] {
  const m = ch.model;
  const n = m.noise;
  const offset = refDay - day;
  const tf = Math.exp(-m.trend * Math.min(offset, TREND_HORIZON_DAYS));
  const wd = weekday(day);
  const weekly = wd === 0 || wd === 6 ? 1.12 : 0.95;
  const spikeMult = spike && offset <= spike.day ? 1 + spike.amplitude * Math.exp(-(spike.day - offset) / spike.tau) : 1;
  const v2 = m.volatility * m.volatility;

  const nv = Math.exp(m.volatility * gaussHash(n, day) - v2 / 2);
  const views = stochasticRound(Math.max(0, m.view_rate * tf * weekly * nv * spikeMult), unitHash(n ^ 0x68e31da4, day));

  const ns = Math.exp(m.volatility * gaussHash(n ^ 0x1b873593, day) - v2 / 2);
  const jitter = gaussHash(n ^ 0xcc9e2d51, day) * (0.35 * Math.sqrt(Math.abs(m.sub_rate)) + 0.3);
  const subs = stochasticRound(
    m.sub_rate * tf * ns * (m.sub_rate > 0 ? spikeMult : 1) + jitter,
    unitHash(n ^ 0x85ebca6b, day),
  );
  return [subs, views];
}

/**
 * Totals at the end of each day from `fromDay` to `refDay` (both day numbers),
 * returned as arrays indexed by (day - fromDay).
 */
function walkBack(ch: StatsChannel, refDay: number, fromDay: number): { subs: Float64Array; views: Float64Array } {
  const len = refDay - fromDay + 1;
  const subs = new Float64Array(len);
  const views = new Float64Array(len);
  const spike = spikeOf(ch.model.noise);
  let s = ch.subscribers;
  let v = ch.total_views;
  for (let i = len - 1; i >= 0; i--) {
    subs[i] = s;
    views[i] = v;
    if (i > 0) {
      const [gs, gv] = dailyGains(ch, refDay, fromDay + i, spike);
      s = Math.max(0, s - gs);
      v = Math.max(0, v - gv);
    }
  }
  return { subs, views };
}

/**
 * Daily history from `fromDay` to `toDay` (day numbers, inclusive, oldest first),
 * clipped to [creation day, reference day].
 */
export function dailyStatsFor(ch: StatsChannel, refDay: number, createdDay: number, fromDay: number, toDay: number): DailyStat[] {
  const from = Math.max(fromDay, createdDay);
  const to = Math.min(toDay, refDay);
  if (from > to) return [];
  // One extra day before `from` gives the first entry's gains.
  const { subs, views } = walkBack(ch, refDay, from - 1);
  const out: DailyStat[] = [];
  for (let day = from; day <= to; day++) {
    const i = day - (from - 1);
    out.push({
      date: dayToIso(day),
      subscribers: subs[i],
      views: views[i],
      subscribers_gained: subs[i] - subs[i - 1],
      views_gained: views[i] - views[i - 1],
    });
  }
  return out;
}

/** Gains over the last `days` days (total at the reference date minus total `days` days earlier). */
export function growthFor(ch: StatsChannel, refDay: number, createdDay: number, days: number): Growth {
  if (!Number.isInteger(days) || days < 0) throw new Error(`growth: days must be a non-negative integer, got ${days}`);
  const span = Math.min(days, refDay - createdDay);
  if (span <= 0) return { subscribers: 0, views: 0 };
  const { subs, views } = walkBack(ch, refDay, refDay - span);
  return { subscribers: subs[span] - subs[0], views: views[span] - views[0] };
}

export function deltasFor(ch: StatsChannel, refDay: number): Deltas {
  const { subs, views } = walkBack(ch, refDay, refDay - 2);
  return {
    views_24h: views[2] - views[1],
    views_48h: views[2] - views[0],
    subs_24h: subs[2] - subs[1],
    subs_48h: subs[2] - subs[0],
  };
}
