/**
 * Breakouts: after the reference date, a channel now and then has a video go viral. Its daily
 * subscriber and view gains jump and decay back over a few days, and the video that caused it
 * (the first upload of that day, see uploads.ts) earns many times the channel's usual views.
 *
 * Stateless: world time after the reference date is cut into 16-day epochs; in each epoch a
 * channel breaks out with a small chance, on a day of the epoch, all drawn from hashes of the
 * channel's noise seed and the epoch number. So whether day d is a breakout day is a pure
 * function of (channel, d) and costs a couple of hashes.
 */
import { unitHash } from './prng.js';

const EPOCH_DAYS = 16;
/** Chance per channel and epoch: about one channel in 300 breaks out on a given day. */
const BREAKOUT_CHANCE = 0.05;
/** Epochs looked back for a decaying boost: older breakouts have faded to nothing. */
const EPOCHS_FELT = 3;

export interface Breakout {
  /** Day number the breakout starts (its viral video is published that day). */
  day: number;
  /** Daily gains are multiplied by 1 + amplitude on the first day, decaying with `tau` days. */
  amplitude: number;
  tau: number;
  /** The viral video's views as a multiple of the channel's usual views (8–40). */
  multiple: number;
}

function epochOf(refDay: number, day: number): number {
  return Math.floor((day - refDay - 1) / EPOCH_DAYS);
}

/** The channel's breakout in one epoch, or null. */
export function breakoutInEpoch(noise: number, refDay: number, epoch: number): Breakout | null {
  if (epoch < 0 || unitHash(noise ^ 0x2545f491, epoch) >= BREAKOUT_CHANCE) return null;
  return {
    day: refDay + 1 + epoch * EPOCH_DAYS + Math.floor(unitHash(noise ^ 0x7a3b9c1d, epoch) * EPOCH_DAYS),
    amplitude: 4 + 12 * unitHash(noise ^ 0x3c6ef372, epoch) ** 2,
    tau: 1.5 + 3 * unitHash(noise ^ 0x5be0cd19, epoch),
    multiple: 8 * 5 ** unitHash(noise ^ 0x1f83d9ab, epoch),
  };
}

/** The breakout starting on `day`, or null (days up to the reference date never start one). */
export function breakoutOn(noise: number, refDay: number, day: number): Breakout | null {
  if (day <= refDay) return null;
  const breakout = breakoutInEpoch(noise, refDay, epochOf(refDay, day));
  return breakout && breakout.day === day ? breakout : null;
}

/** Extra multiplier (beyond 1) of the day's gains from breakouts on or before `day`. */
export function breakoutBoost(noise: number, refDay: number, day: number): number {
  if (day <= refDay) return 0;
  let boost = 0;
  const current = epochOf(refDay, day);
  for (let epoch = current; epoch > current - EPOCHS_FELT && epoch >= 0; epoch -= 1) {
    const breakout = breakoutInEpoch(noise, refDay, epoch);
    if (breakout && breakout.day <= day) boost += breakout.amplitude * Math.exp(-(day - breakout.day) / breakout.tau);
  }
  return boost;
}
