/**
 * The managed-network verdict from the live site's public pages. Public pages do not show the
 * network managing a channel in general, so this reports `managed` only on a strong public signal,
 * naming the owner as the pages show it:
 * - art tracks: descriptions saying "Provided to YouTube by <distributor>" — on a "- Topic" or an
 *   official artist channel (both fed by a distributor) one is enough; otherwise at least two, and at
 *   least half of the videos read; every art track read must name the same distributor;
 * - licensing rows: the music sections of at least three videos, and of at least half the videos
 *   read, naming the same first owner ("<owner> (on behalf of …); …"), with no video naming another.
 * Anything less is no verdict (`unchecked`), never `not_managed`: no public page shows a channel is
 * not managed. The owner's `oid` is derived from its name, so the same name is the same network.
 */
import { createHash } from 'node:crypto';
import type { NetworkOwner } from '../../platform/networks.js';
import type { PageSignal } from '../../platform/page-signals.js';
import type { ChannelPages } from '../../platform/public-pages.js';

/** Newest videos a live check reads. */
export const NETWORK_PAGES_READ = 5;
/** Videos whose licensing rows must name the same owner. */
export const MIN_LICENSING_VIDEOS = 3;

export type NetworkJudgement = { owner: NetworkOwner; signals: PageSignal[] } | { owner: null; note: string; hint: string; signals: PageSignal[] };

const PROVIDED_BY = /provided to youtube by\s+([^\n\r]+)/i;
const TOPIC = /\s-\sTopic$/;

/** The distributor an art track's description names, as written. */
export function providerOf(description: string): string | null {
  const name = PROVIDED_BY.exec(description)?.[1]?.trim().replace(/[.,;:\s]+$/, '');
  return name ? name : null;
}

/** The first owner a licensing row names: "Example Music Group (on behalf of Tide Records); ASCAP" → "Example Music Group". */
export function licensorOf(row: string): string | null {
  const first = row.split(/[;\n]/)[0]!.replace(/\s*\(on behalf of[^)]*\)/i, '').trim().replace(/[.,:\s]+$/, '');
  return first ? first : null;
}

/** Names that differ only in case, width or spacing are the same owner. */
const ownerKey = (name: string) => name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** A stable 22-character owner id derived from the owner's name as shown. */
export function liveOwnerOid(name: string): string {
  return createHash('sha256').update(`tubekit-live-owner\0${ownerKey(name)}`).digest('base64url').slice(0, 22);
}

interface Named {
  key: string;
  name: string;
  urls: string[];
}

/** Names by how many videos name them, most first (the first spelling seen is kept). */
function tally(entries: Array<{ name: string; url: string }>): Named[] {
  const byKey = new Map<string, Named>();
  for (const { name, url } of entries) {
    const key = ownerKey(name);
    const named = byKey.get(key) ?? { key, name, urls: [] };
    if (!named.urls.includes(url)) named.urls.push(url);
    byKey.set(key, named);
  }
  return [...byKey.values()].sort((a, b) => b.urls.length - a.urls.length);
}

export function judgeNetworkPages(pages: ChannelPages): NetworkJudgement {
  const signals: PageSignal[] = [];
  const topic = TOPIC.test(pages.title);
  if (topic) signals.push({ id: 'topic_channel', evidence: `"${pages.title}" is an auto-generated "- Topic" channel: its music comes from a distributor.`, url: pages.channel_url });
  if (pages.official_artist) signals.push({ id: 'official_artist', evidence: 'The channel carries the official artist channel badge.', url: pages.channel_url });

  const artTracks = pages.videos.flatMap((video) => {
    const name = providerOf(video.description);
    return name ? [{ name, url: video.url }] : [];
  });
  for (const track of artTracks) signals.push({ id: 'art_track', evidence: `The description says "Provided to YouTube by ${track.name}".`, url: track.url });
  const licensing = pages.videos.flatMap((video) =>
    video.licensing.flatMap((row) => {
      const name = licensorOf(row);
      return name ? [{ name, url: video.url, row }] : [];
    }),
  );
  for (const entry of licensing) signals.push({ id: 'music_licensing', evidence: `The music section's licensing row names ${entry.name}: "${entry.row}".`, url: entry.url });
  signals.push(...pages.unread);

  const read = pages.videos.length;
  const [provider, ...otherProviders] = tally(artTracks);
  if (provider && otherProviders.length === 0) {
    const count = provider.urls.length;
    if (((topic || pages.official_artist) && count >= 1) || (count >= 2 && count * 2 >= read)) {
      return { owner: owner(provider.name, 'Music distributor'), signals };
    }
  }
  const [licensor, ...otherLicensors] = tally(licensing);
  if (licensor && otherLicensors.length === 0 && licensor.urls.length >= MIN_LICENSING_VIDEOS && licensor.urls.length * 2 >= read) {
    return { owner: owner(licensor.name, 'Music rights owner'), signals };
  }
  return { owner: null, ...undecided(pages, topic, artTracks.length, licensing.length), signals: [...signals, noVerdictSignal(pages)] };
}

function owner(name: string, type: string): NetworkOwner {
  return { oid: liveOwnerOid(name), name, type, industry: 'Music' };
}

function noVerdictSignal(pages: ChannelPages): PageSignal {
  const read = pages.videos.length;
  return {
    id: 'no_public_signal',
    evidence: `Read the channel page and ${read === 1 ? 'its newest video' : `its ${read} newest videos`}: no art tracks, "- Topic" or official artist channel fed by a distributor, or licensing rows naming one owner across its videos.`,
    url: pages.channel_url,
  };
}

function undecided(pages: ChannelPages, topic: boolean, artTracks: number, licensingRows: number): { note: string; hint: string } {
  const read = pages.videos.length;
  if (read === 0 && pages.unread.length > 0) {
    return {
      note: "No verdict: the channel's video pages could not be read (refused or not playable).",
      hint: 'Retry later (refresh=1); if the site keeps refusing, slow down (TUBEKIT_PLATFORM_RATE), use a proxy (TUBEKIT_PROXY) or a cookies file (TUBEKIT_COOKIES).',
    };
  }
  const seen =
    topic && artTracks === 0
      ? ' The channel is a "- Topic" channel, but none of its videos read names its distributor.'
      : artTracks > 0 || licensingRows > 0
        ? ' Its art tracks or licensing rows do not name one owner consistently enough to say.'
        : '';
  // Some pages failed: what they show is unknown, so another read may decide it.
  if (pages.unread.length > 0) {
    const failed = pages.unread.length;
    return {
      note: `No verdict: ${failed} of the channel's ${read + failed} video pages could not be read, and the ${read} read do not decide it.${seen}`,
      hint: 'Retry later (refresh=1): the pages that could not be read may show what decides it.',
    };
  }
  return {
    note: `No public signal decides it: public pages do not show the network managing a channel in general, and tubekit reports one only when art tracks, a "- Topic" or official artist channel, or licensing rows name the owner.${seen}`,
    hint: 'Retrying does not help until the channel publishes what decides it (refresh=1 reads its pages again); its managing network, if any, is not shown on public pages.',
  };
}
