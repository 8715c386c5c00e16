/**
 * Daily statistics, derived (never stored) from a channel's growth model.
 *
 * The gain of each day is a pure function of (model, day number): a base rate bent by the
 * channel's trend, a weekly rhythm, log-normal noise, a viral spike (one in the past for some
 * channels; breakouts after the reference date, see breakouts.ts) and, for subscribers, a little
 * signed jitter (so subscriber gains are sometimes negative).
 *
 * Totals hang off one stored *anchor* per channel: its totals at the end of the world's last
 * completed day (`anchor_day`, `day_subs`, `day_views` on the channel row, moved forward by
 * `advance`). From the anchor:
 * - after the reference date, totals walk forward and back exactly: S(d) = S(d-1) + gain(d).
 *   Subscribers are kept raw (they may dip below zero) and shown as max(0, raw);
 * - up to the reference date, totals walk back as the world was generated:
 *   S(d-1) = max(0, S(d) - gain(d)), so the past looks the same however far the world moved;
 * - channels that appeared after the reference date have zero totals up to their creation day.
 * Within a day, the day's gain accrues in proportion to the time elapsed, so a total exists for
 * any instant up to "now" and every published figure (history, growth, deltas) is a difference
 * of those totals.
 */
import { DAY_MS, dayToIso, weekday } from '../../dates.js';
import { breakoutBoost } from './breakouts.js';
import { gaussHash, stochasticRound, unitHash } from './prng.js';
import type { ChannelGrowthModel, DailyStat, Deltas, Growth } from './types.js';

/** Default length of dailyStats() (days, ending at the world's current day). */
export const DEFAULT_HISTORY_DAYS = 60;

/** What a channel's statistics depend on. */
export interface StatsSource {
  model: ChannelGrowthModel;
  createdDay: number;
  /** Appeared after the reference date: totals are zero up to the end of its creation day. */
  arrival: boolean;
  /** The day the anchor totals are for, and the totals (subscribers raw). */
  anchorDay: number;
  anchorSubs: number;
  anchorViews: number;
}

const TREND_HORIZON_DAYS = 180;
/** After the reference date the trend bends the rates for at most this many days. */
const FUTURE_TREND_DAYS = 90;

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
export function dailyGains(source: StatsSource, refDay: number, day: number): [subs: number, views: number] {
  if (source.arrival && day <= source.createdDay) return [0, 0];
  const m = source.model;
  const n = m.noise;
  const offset = refDay - day;
  const tf = offset >= 0 ? Math.exp(-m.trend * Math.min(offset, TREND_HORIZON_DAYS)) : Math.exp(m.trend * Math.min(-offset, FUTURE_TREND_DAYS));
  const wd = weekday(day);
  const weekly = wd === 0 || wd === 6 ? 1.12 : 0.95;
  const spike = spikeOf(n);
  let spikeMult = spike && offset <= spike.day ? 1 + spike.amplitude * Math.exp(-(spike.day - offset) / spike.tau) : 1;
  spikeMult += breakoutBoost(n, refDay, day);
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

/** Raw totals at the end of each day from `lo` to `hi` (day numbers), indexed by (day - lo). */
export function totalsOnDays(source: StatsSource, refDay: number, lo: number, hi: number): { subs: Float64Array; views: Float64Array } {
  const first = Math.min(lo, source.anchorDay);
  const last = Math.max(hi, source.anchorDay);
  const subs = new Float64Array(last - first + 1);
  const views = new Float64Array(last - first + 1);
  let at = source.anchorDay - first;
  subs[at] = source.anchorSubs;
  views[at] = source.anchorViews;
  for (let day = source.anchorDay + 1; day <= last; day++) {
    const [gs, gv] = dailyGains(source, refDay, day);
    at = day - first;
    subs[at] = subs[at - 1] + gs;
    views[at] = views[at - 1] + gv;
  }
  for (let day = source.anchorDay; day > first; day--) {
    at = day - first;
    if (source.arrival && day - 1 <= source.createdDay) {
      subs[at - 1] = 0;
      views[at - 1] = 0;
      continue;
    }
    const [gs, gv] = dailyGains(source, refDay, day);
    if (day > refDay) {
      subs[at - 1] = subs[at] - gs;
      views[at - 1] = views[at] - gv;
    } else {
      subs[at - 1] = Math.max(0, subs[at] - gs);
      views[at - 1] = Math.max(0, views[at] - gv);
    }
  }
  return { subs: subs.subarray(lo - first, hi - first + 1), views: views.subarray(lo - first, hi - first + 1) };
}

/** Displayed subscriber and view totals at each instant (ms), none of them after "now". */
export function totalsAt(source: StatsSource, refDay: number, times: readonly number[]): Array<{ subscribers: number; views: number }> {
  if (times.length === 0) return [];
  const days = times.map((t) => Math.floor(t / DAY_MS));
  const lo = Math.min(...days) - 1;
  const hi = Math.max(...days) - 1;
  const { subs, views } = totalsOnDays(source, refDay, lo, hi);
  return times.map((t, index) => {
    const day = days[index]!;
    const fraction = (t - day * DAY_MS) / DAY_MS;
    let s = subs[day - 1 - lo]!;
    let v = views[day - 1 - lo]!;
    if (fraction > 0) {
      const [gs, gv] = dailyGains(source, refDay, day);
      s += Math.trunc(gs * fraction);
      v += Math.trunc(gv * fraction);
    }
    return { subscribers: Math.max(0, s), views: v };
  });
}

/**
 * Daily history from `fromDay` to `toDay` (day numbers, inclusive, oldest first), clipped to
 * the channel's creation day and to the world's current day. The current day, when it has begun,
 * is the last entry with its totals so far, so the last entry always equals the current totals.
 */
export function dailyStatsFor(source: StatsSource, refDay: number, nowMs: number, fromDay: number, toDay: number): DailyStat[] {
  const today = Math.floor(nowMs / DAY_MS);
  const partial = nowMs > today * DAY_MS;
  const lastDay = partial ? today : today - 1;
  const from = Math.max(fromDay, source.createdDay);
  const to = Math.min(toDay, lastDay);
  if (from > to) return [];
  const completeTo = Math.min(to, today - 1);
  const { subs, views } = totalsOnDays(source, refDay, from - 1, Math.max(completeTo, from - 1));
  const shown = (day: number): [number, number] => {
    if (day === today) {
      const now = totalsAt(source, refDay, [nowMs])[0]!;
      return [now.subscribers, now.views];
    }
    return [Math.max(0, subs[day - (from - 1)]!), views[day - (from - 1)]!];
  };
  const out: DailyStat[] = [];
  let [prevSubs, prevViews] = shown(from - 1);
  for (let day = from; day <= to; day++) {
    const [s, v] = shown(day);
    out.push({ date: dayToIso(day), subscribers: s, views: v, subscribers_gained: s - prevSubs, views_gained: v - prevViews });
    prevSubs = s;
    prevViews = v;
  }
  return out;
}

/** Gains over the last `days` days of world time, never reaching back before the channel existed. */
export function growthFor(source: StatsSource, refDay: number, nowMs: number, days: number): Growth {
  if (!Number.isInteger(days) || days < 0) throw new Error(`growth: days must be a non-negative integer, got ${days}`);
  const from = Math.max(nowMs - days * DAY_MS, (source.createdDay + 1) * DAY_MS);
  if (from >= nowMs) return { subscribers: 0, views: 0 };
  const [start, end] = totalsAt(source, refDay, [from, nowMs]);
  return { subscribers: end!.subscribers - start!.subscribers, views: end!.views - start!.views };
}

export function deltasFor(source: StatsSource, refDay: number, nowMs: number): Deltas {
  const [now, day, twoDays] = totalsAt(source, refDay, [nowMs, nowMs - DAY_MS, nowMs - 2 * DAY_MS]);
  return {
    views_24h: now!.views - day!.views,
    views_48h: now!.views - twoDays!.views,
    subs_24h: now!.subscribers - day!.subscribers,
    subs_48h: now!.subscribers - twoDays!.subscribers,
  };
}
