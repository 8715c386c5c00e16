/**
 * Terminated-channel records for tests that compare the live terminated store on SQLite and on
 * PostgreSQL: names and video titles in several scripts (accents, unspaced scripts, Cyrillic),
 * words with inner punctuation, figures unknown for some channels, several channels terminated in
 * the same second (keys within a second), and names of many lengths (similarity tiers).
 */
import type { LiveTerminatedRecord } from '../../src/engine/index/terminated/live-records.js';

const NAMES = [
  'Cooking', 'cooking', 'Gaming', 'Music', 'Lucía', 'Jürgen', 'Thảo', 'CAFÉ', 'cafe', 'one-pot', 'One Pot', 'さくらチャンネル', 'チャンネル',
  'Иван', 'иван', 'lofi', 'Beats', 'the', 'of', '2024', 'x', 'Ñandú', 'naïve', 'São', 'Paulo', 'ドラマ', '김치', 'Straße', 'é', 'l\'amour',
];

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export const terminatedChannelId = (n: number) => `UC${String(n).padStart(22, 'w')}`;

/** `count` records; `now` is the newest termination time. */
export function terminatedRecords(count: number, now: number, seed = 7): LiveTerminatedRecord[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(NAMES)).join(' ');
  const maybe = <T>(value: T) => (next() < 0.3 ? null : value);
  return Array.from({ length: count }, (_, n): LiveTerminatedRecord => {
    // Every fifth channel shares its second with the one before: keys within one second.
    const hours = n % 5 === 4 ? Math.floor((n - 1) * 7.3) : Math.floor(n * 7.3);
    const subscribers = maybe(Math.floor(next() * 1_000_000));
    return {
      channel_id: terminatedChannelId(n),
      channel_title: words(1 + Math.floor(next() * 5)),
      terminated_at: new Date(now - hours * 3_600_000).toISOString(),
      subscribers,
      total_views: maybe(Math.floor(next() * 1e8)),
      video_count: maybe(Math.floor(next() * 500)),
      views_24h: maybe(Math.floor(next() * 10_000) - 2_000),
      views_48h: maybe(Math.floor(next() * 20_000)),
      subs_24h: maybe(Math.floor(next() * 500) - 100),
      subs_48h: maybe(Math.floor(next() * 900)),
      language_code: maybe(pick(['en', 'es', 'ja', 'ru'])),
      content_type: maybe(pick(['longform', 'shorts', 'mixed'] as const)),
      first_upload_date: maybe(`20${String(10 + Math.floor(next() * 14))}-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}`),
      monetized: maybe(next() < 0.5),
      low_quality: maybe(next() < 0.2),
      thumbnail_url: maybe(`https://yt3.example/${n}.jpg`),
      top_videos: Array.from({ length: Math.floor(next() * 4) }, (_, k) => ({
        video_id: `v${String(n).padStart(8, '0')}_${k}`,
        title: words(1 + Math.floor(next() * 4)),
        views: Math.floor(next() * 100_000),
        kind: next() < 0.3 ? 'short' : 'long',
      })),
    };
  });
}
