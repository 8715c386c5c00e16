/** The made-up live site most live suites share: two cooking channels that collab, and a terminated one. */
import type { LiveSite, SiteVideo } from './live-site.js';

/** A channel id of the test site: "UC" and 22 characters. */
export const siteId = (name: string) => `UC${name.padEnd(22, '0')}`;

export const JANE = siteId('liveJane');
export const SAM = siteId('liveSam');
export const GONE = siteId('liveGone');
export const LEE = siteId('liveLee');
const DAY = 86_400_000;

/**
 * Jane uploads a long video every two days (captions in English); one of them, five days old, lists
 * Sam too. Sam's latest upload lists Lee; nobody lists Gone.
 */
export function cookingSite(site: LiveSite, now: number): void {
  const uploads: SiteVideo[] = Array.from({ length: 8 }, (_, n) => ({
    id: `janeVid${String(n).padStart(4, '0')}`,
    title: n === 2 ? 'Dumplings with Sam' : `Weeknight dinner ${n}`,
    views: 2_000 + n * 100,
    publishedMs: now - (1 + 2 * n) * DAY,
    channels: n === 2 ? [JANE, SAM] : [JANE],
    language: 'en',
  }));
  site.add({ id: JANE, handle: '@livejane', title: 'Live Jane Cooks', subscribers: 25_000, views: 1_234_567, videoCount: 120, joined: '2019-05-04', uploads });
  site.add({
    id: SAM,
    handle: '@livesam',
    title: 'Sam Bakes Live',
    subscribers: 8_800,
    views: 456_789,
    videoCount: 40,
    joined: '2021-02-11',
    uploads: [{ id: 'samVid00001', title: 'Sourdough with Lee', views: 900, publishedMs: now - 3 * DAY, channels: [SAM, LEE], language: 'en' }],
  });
  site.add({ id: LEE, handle: '@livelee', title: 'Lee Ferments', subscribers: 1_500, views: 60_000, videoCount: 9, joined: '2023-03-03', uploads: [] });
  site.add({ id: GONE, handle: '@livegone', title: 'Soon Gone', subscribers: 3_000, views: 90_000, videoCount: 12, joined: '2022-07-01', uploads: [] });
}
