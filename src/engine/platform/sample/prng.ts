/**
 * Seeded pseudo-random helpers for the sample world.
 *
 * Everything in the world is derived from (seed, entity key, entity index):
 * `streamSeed(seed, 'channels')` hashes the pair once, and `rngFor(stream, i)`
 * gives channel i its own independent generator. Because each entity kind
 * has its own key, adding a new kind (networks, transcripts, ...) never
 * shifts the numbers drawn by an existing one.
 *
 * The generator is mulberry32 (32-bit state, fast, good enough for a
 * synthetic world); hashing uses FNV-1a with the murmur3 finaliser.
 */

import { fmix32, hashString } from '../../hash.js';

const TWO_32 = 4294967296;

export { fmix32, hashString };

/** Combine two 32-bit values into a well-mixed 32-bit hash (order matters). */
export function mix32(a: number, b: number): number {
  return fmix32((a ^ fmix32((b + 0x9e3779b9) | 0)) >>> 0);
}

/** Stateless uniform in [0, 1) from (a, b). */
export function unitHash(a: number, b: number): number {
  return mix32(a, b) / TWO_32;
}

/** Stateless standard normal from (a, b) (Box-Muller over two hashes). */
export function gaussHash(a: number, b: number): number {
  const u1 = (mix32(a, b) + 1) / (TWO_32 + 1);
  const u2 = mix32(b ^ 0x5bd1e995, a) / TWO_32;
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Hash of (seed, entity key): the root of one entity kind's streams. */
export function streamSeed(seed: string, key: string): number {
  return hashString(`${seed}\u241f${key}`);
}

/** Independent generator for item `index` of the stream rooted at `stream`. */
export function rngFor(stream: number, index = 0): Rng {
  return new Rng(mix32(stream, index));
}

export class Rng {
  private s: number;

  constructor(state: number) {
    this.s = state >>> 0;
  }

  /** Uniform 32-bit unsigned integer. */
  u32(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.u32() / TWO_32;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Uniform float in [lo, hi). */
  float(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Standard normal (Box-Muller; one value per call, keeps the stream simple). */
  normal(): number {
    const u1 = 1 - this.next();
    const u2 = this.next();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  /** Log-normal with the given median and sigma (of the underlying normal). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Pareto (power-law tail) with minimum xmin and shape alpha. */
  pareto(xmin: number, alpha: number): number {
    return xmin / Math.pow(1 - this.next(), 1 / alpha);
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** In-place Fisher-Yates shuffle. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i];
      items[i] = items[j];
      items[j] = tmp;
    }
    return items;
  }
}

/** A precomputed weighted choice (binary search over cumulative weights). */
export class Weighted<T> {
  readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    if (entries.length === 0) throw new Error('Weighted: no entries');
    this.items = entries.map((e) => e[0]);
    this.cumulative = new Float64Array(entries.length);
    let sum = 0;
    entries.forEach(([, w], i) => {
      if (!(w >= 0)) throw new Error('Weighted: negative weight');
      sum += w;
      this.cumulative[i] = sum;
    });
    if (sum <= 0) throw new Error('Weighted: weights sum to zero');
    this.total = sum;
  }

  pick(rng: Rng): T {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

/** Round x to an integer, up or down with probability given by its fraction (u in [0,1)). */
export function stochasticRound(x: number, u: number): number {
  const f = Math.floor(x);
  return f + (u < x - f ? 1 : 0);
}

export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
