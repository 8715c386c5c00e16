/**
 * Platform-shaped identifiers that are unique by construction and reversible.
 *
 * Both kinds of id start from a keyed 64-bit Feistel permutation of the
 * entity's coordinates, so two different entities can never share an id and
 * an id can be decoded back to its coordinates without any lookup table:
 *
 * - channel id: "UC" + 22 base64url chars = 128 bits: the permuted 64-bit
 *   value of (0, channel index) followed by 64 bits of keyed hash. As on the
 *   real platform, the last char only carries 2 bits (one of A, Q, g, w).
 * - video id: 11 base64url chars = 64 bits: the permutation of
 *   (channel index, ordinal of the video in the channel's list). The last
 *   char carries 4 bits (one of AEIMQUYcgkosw048), again like real ids.
 *
 * Decoding a video id gives its owning channel, which is what makes lazily
 * derived videos resolvable (`videoById`) in worlds of any size.
 */
import { fmix32, hashString, mix32 } from './prng.js';

export const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const ALPHABET_INDEX: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < ID_ALPHABET.length; i++) t[ID_ALPHABET.charCodeAt(i)] = i;
  return t;
})();

const ROUNDS = 4;

/** Round keys for one id family of one world. */
export interface IdKeys {
  readonly rounds: Uint32Array;
  readonly tail: number;
}

export function idKeys(seed: string, family: string): IdKeys {
  const rounds = new Uint32Array(ROUNDS);
  for (let i = 0; i < ROUNDS; i++) rounds[i] = hashString(`${seed}\u241fids/${family}/${i}`);
  return { rounds, tail: hashString(`${seed}\u241fids/${family}/tail`) };
}

/** Keyed permutation of 64-bit values given as (hi, lo) 32-bit halves. */
export function feistel64(keys: IdKeys, hi: number, lo: number): [number, number] {
  let l = hi >>> 0;
  let r = lo >>> 0;
  for (let i = 0; i < ROUNDS; i++) {
    const nl = r;
    r = (l ^ fmix32((r ^ keys.rounds[i]) >>> 0)) >>> 0;
    l = nl;
  }
  return [l, r];
}

export function feistel64Inverse(keys: IdKeys, hi: number, lo: number): [number, number] {
  let l = hi >>> 0;
  let r = lo >>> 0;
  for (let i = ROUNDS - 1; i >= 0; i--) {
    const pl = (r ^ fmix32((l ^ keys.rounds[i]) >>> 0)) >>> 0;
    r = l;
    l = pl;
  }
  return [l, r];
}

/** Read n (≤ 6) bits starting at bit `pos` (MSB first) of 32-bit words. */
function readBits(words: ArrayLike<number>, pos: number, n: number): number {
  const w = pos >>> 5;
  const off = pos & 31;
  if (off + n <= 32) return (words[w] >>> (32 - off - n)) & ((1 << n) - 1);
  const n1 = 32 - off;
  const n2 = n - n1;
  return ((words[w] & ((1 << n1) - 1)) << n2) | (words[w + 1] >>> (32 - n2));
}

/** Encode `bits` bits of `words` (MSB first) as base64url; the last char is left-aligned. */
function encodeBits(words: ArrayLike<number>, bits: number): string {
  let out = '';
  for (let pos = 0; pos < bits; pos += 6) {
    const n = Math.min(6, bits - pos);
    out += ID_ALPHABET[readBits(words, pos, n) << (6 - n)];
  }
  return out;
}

/** Decode base64url chars into `wordCount` 32-bit words; null if malformed or non-canonical. */
function decodeBits(text: string, bits: number, wordCount: number): Uint32Array | null {
  const words = new Uint32Array(wordCount);
  let pos = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? ALPHABET_INDEX[c] : -1;
    if (v < 0) return null;
    const n = Math.min(6, bits - pos);
    if (n <= 0) return null;
    const unused = 6 - n;
    if (unused > 0 && (v & ((1 << unused) - 1)) !== 0) return null; // non-canonical tail bits
    const value = v >>> unused;
    for (let b = n - 1; b >= 0; b--) {
      if ((value >>> b) & 1) words[pos >>> 5] |= 1 << (31 - (pos & 31));
      pos++;
    }
  }
  return pos === bits ? words : null;
}

export function encodeChannelId(keys: IdKeys, index: number): string {
  const [a, b] = feistel64(keys, 0, index);
  const c = mix32(keys.tail, a);
  const d = mix32(c, b);
  return 'UC' + encodeBits([a, b, c, d], 128);
}

/** Channel index encoded in a channel id of this world, or -1. */
export function decodeChannelId(keys: IdKeys, id: string): number {
  if (id.length !== 24 || !id.startsWith('UC')) return -1;
  const w = decodeBits(id.slice(2), 128, 4);
  if (!w) return -1;
  const [hi, lo] = feistel64Inverse(keys, w[0], w[1]);
  if (hi !== 0) return -1;
  const c = mix32(keys.tail, w[0]);
  if (c !== w[2] || mix32(c, w[1]) !== w[3]) return -1;
  return lo;
}

export function encodeVideoId(keys: IdKeys, channelIndex: number, ordinal: number): string {
  const [a, b] = feistel64(keys, channelIndex, ordinal);
  return encodeBits([a, b], 64);
}

/** (channel index, ordinal) encoded in a video id of this world, or null. */
export function decodeVideoId(keys: IdKeys, id: string): { channelIndex: number; ordinal: number } | null {
  if (id.length !== 11) return null;
  const w = decodeBits(id, 64, 2);
  if (!w) return null;
  const [channelIndex, ordinal] = feistel64Inverse(keys, w[0], w[1]);
  return { channelIndex, ordinal };
}

export const CHANNEL_ID_RE = /^UC[A-Za-z0-9_-]{22}$/;
export const VIDEO_ID_RE = /^[A-Za-z0-9_-]{11}$/;
