import { describe, expect, it } from 'vitest';
import {
  CHANNEL_ID_RE,
  decodeChannelId,
  decodeVideoId,
  encodeChannelId,
  encodeVideoId,
  feistel64,
  feistel64Inverse,
  idKeys,
  VIDEO_ID_RE,
} from '../../../src/engine/platform/sample/ids.js';
import { hashString, Rng, rngFor, streamSeed, Weighted } from '../../../src/engine/platform/sample/prng.js';
import { dayNumber, dayToIso, weekday } from '../../../src/engine/dates.js';

describe('prng', () => {
  it('is deterministic per (seed, key, index) and independent across keys', () => {
    const a = rngFor(streamSeed('s', 'channels'), 7);
    const b = rngFor(streamSeed('s', 'channels'), 7);
    const seqA = Array.from({ length: 20 }, () => a.u32());
    const seqB = Array.from({ length: 20 }, () => b.u32());
    expect(seqA).toEqual(seqB);
    const c = rngFor(streamSeed('s', 'videos'), 7);
    expect(Array.from({ length: 20 }, () => c.u32())).not.toEqual(seqA);
    expect(streamSeed('s', 'x')).not.toBe(streamSeed('t', 'x'));
  });

  it('hashString is stable and 32-bit', () => {
    expect(hashString('tubekit')).toBe(hashString('tubekit'));
    expect(hashString('tubekit')).not.toBe(hashString('Tubekit'));
    expect(hashString('')).toBeGreaterThanOrEqual(0);
    expect(hashString('abc')).toBeLessThan(2 ** 32);
  });

  it('helpers stay in range', () => {
    const r = new Rng(123);
    for (let i = 0; i < 2000; i++) {
      const x = r.int(3, 9);
      expect(x).toBeGreaterThanOrEqual(3);
      expect(x).toBeLessThanOrEqual(9);
      const f = r.next();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      expect(r.logNormal(100, 1)).toBeGreaterThan(0);
      expect(r.pareto(10, 1.2)).toBeGreaterThanOrEqual(10);
    }
    const w = new Weighted([['a', 1], ['b', 0], ['c', 3]] as const);
    const counts = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 4000; i++) counts[w.pick(r)]++;
    expect(counts.b).toBe(0);
    expect(counts.c).toBeGreaterThan(counts.a);
  });
});

describe('ids', () => {
  const ck = idKeys('seed', 'channel');
  const vk = idKeys('seed', 'video');

  it('feistel64 is a reversible permutation', () => {
    for (const [hi, lo] of [[0, 0], [0, 1], [5, 17], [0xffffffff, 0xffffffff], [123456, 999]]) {
      const [a, b] = feistel64(ck, hi, lo);
      expect(feistel64Inverse(ck, a, b)).toEqual([hi >>> 0, lo >>> 0]);
    }
  });

  it('channel ids: UC + 22 chars, unique, decodable', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const id = encodeChannelId(ck, i);
      expect(id).toMatch(CHANNEL_ID_RE);
      expect('AQgw').toContain(id[23]); // 128 bits: last char carries 2 bits, as on the platform
      expect(decodeChannelId(ck, id)).toBe(i);
      seen.add(id);
    }
    expect(seen.size).toBe(5000);
    expect(decodeChannelId(idKeys('other', 'channel'), encodeChannelId(ck, 3))).toBe(-1);
    expect(decodeChannelId(ck, 'UCxxxxxxxxxxxxxxxxxxxxxx')).toBe(-1);
    expect(decodeChannelId(ck, 'nope')).toBe(-1);
  });

  it('video ids: 11 chars, decodable to (channel, ordinal)', () => {
    const seen = new Set<string>();
    for (let c = 0; c < 200; c++) {
      for (let o = 0; o < 25; o++) {
        const id = encodeVideoId(vk, c, o);
        expect(id).toMatch(VIDEO_ID_RE);
        expect('AEIMQUYcgkosw048').toContain(id[10]); // 64 bits: last char carries 4 bits
        expect(decodeVideoId(vk, id)).toEqual({ channelIndex: c, ordinal: o });
        seen.add(id);
      }
    }
    expect(seen.size).toBe(5000);
    expect(decodeVideoId(vk, 'abcdefghijB')).toBeNull(); // non-canonical last char
    expect(decodeVideoId(vk, 'short')).toBeNull();
    expect(decodeVideoId(vk, 'abc$efghijA')).toBeNull();
  });
});

describe('dates', () => {
  it('converts day numbers both ways', () => {
    for (const d of ['1970-01-01', '2006-01-01', '2024-02-29', '2026-11-21', '2099-12-31']) {
      expect(dayToIso(dayNumber(d))).toBe(d);
    }
    expect(weekday(dayNumber('2026-11-21'))).toBe(6); // a Saturday
    expect(() => dayNumber('2026-02-30')).toThrow();
  });
});
