/**
 * What a watch page says beyond the video itself, read off its player and watch-next answers:
 * whether ads were served to this request (the `yt_ad` tracking parameter, `adPlacements`,
 * `playerAds`, `adSlots`), whether it plays at all (sign-in, members only), a paid-promotion
 * disclosure, the channel's Join (membership) button, and the description's music section with its
 * licensing rows (music a rights owner may claim, and run ads on).
 */
import type { PageSignal } from '../page-signals.js';
import { asString, at, findAll, type Json, textOf } from './json-walk.js';

export const watchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/** The value of a tracking parameter in the answer's `serviceTrackingParams`, when present. */
export function trackingParam(answer: Json, key: string): string | undefined {
  const services = at(answer, 'responseContext', 'serviceTrackingParams');
  if (!Array.isArray(services)) return undefined;
  for (const service of services) {
    const params = at(service, 'params');
    if (!Array.isArray(params)) continue;
    const found = params.find((param) => asString(at(param, 'key')) === key);
    if (found) return asString(at(found, 'value'));
  }
  return undefined;
}

export interface AdsServed {
  /** True: ads served to this request; false: the answer says none were; null: it does not say. */
  served: boolean | null;
  signals: PageSignal[];
}

const PLACEMENT_KIND: Record<string, string> = {
  AD_PLACEMENT_KIND_START: 'before the video',
  AD_PLACEMENT_KIND_MILLISECONDS: 'during the video',
  AD_PLACEMENT_KIND_END: 'after the video',
};

/** Ads served with this player answer, and the evidence for it. */
export function adsServed(player: Json, url: string): AdsServed {
  const signals: PageSignal[] = [];
  const ytAd = trackingParam(player, 'yt_ad');
  if (ytAd === '1') signals.push({ id: 'yt_ad', evidence: "The player answer's tracking parameters say ads were served to this request (yt_ad=1).", url });
  const placements = arrayAt(player, 'adPlacements');
  if (placements.length > 0) {
    const kinds = [...new Set(placements.map((placement) => asString(findAll(placement, 'kind')[0]) ?? ''))].map((kind) => PLACEMENT_KIND[kind] ?? 'at a set time');
    signals.push({ id: 'ad_placements', evidence: `The player answer schedules ${count(placements.length, 'ad placement')} (${kinds.join(', ')}).`, url });
  }
  const playerAds = arrayAt(player, 'playerAds');
  if (playerAds.length > 0) signals.push({ id: 'player_ads', evidence: `The player answer carries ${count(playerAds.length, 'ad')} to play (playerAds).`, url });
  const slots = arrayAt(player, 'adSlots');
  if (slots.length > 0) signals.push({ id: 'ad_slots', evidence: `The player answer fills ${count(slots.length, 'ad slot')} (adSlots).`, url });
  if (signals.length > 0) return { served: true, signals };
  if (ytAd === '0') {
    return { served: false, signals: [{ id: 'no_ads', evidence: 'The player answer says no ads were served to this request (yt_ad=0) and schedules none.', url }] };
  }
  return { served: null, signals: [{ id: 'no_ad_report', evidence: 'The player answer does not say whether ads were served (no yt_ad tracking parameter) and schedules none.', url }] };
}

export type Playability = { playable: true } | { playable: false; membersOnly: boolean; signal: PageSignal };

/** Whether the page plays for an anonymous reader; why not, when it does not. */
export function playabilityOf(player: Json, url: string): Playability {
  const status = asString(at(player, 'playabilityStatus', 'status')) ?? 'OK';
  if (status === 'OK') return { playable: true };
  const reason = textOf(at(player, 'playabilityStatus', 'reason')) ?? textOf(findAll(at(player, 'playabilityStatus'), 'subreason')[0]) ?? status;
  const screen = `${reason} ${JSON.stringify(at(player, 'playabilityStatus', 'errorScreen') ?? '')}`;
  if (/members?[- ]only|join this channel/i.test(screen)) {
    return { playable: false, membersOnly: true, signal: { id: 'members_only', evidence: `The video is for channel members only: "${reason}"`, url } };
  }
  if (status === 'LOGIN_REQUIRED') return { playable: false, membersOnly: false, signal: { id: 'sign_in', evidence: `The page asks to sign in: "${reason}"`, url } };
  return { playable: false, membersOnly: false, signal: { id: 'unplayable', evidence: `The page does not play (${status}): "${reason}"`, url } };
}

/** The page discloses paid promotion (the player's "Includes paid promotion" overlay). */
export function paidPromotion(player: Json): boolean {
  return at(player, 'paidContentOverlay') !== undefined;
}

/** The watch page shows the channel's Join button: its owner block has a membership button. */
export function joinButton(next: Json, channelId: string): boolean {
  return findAll(next, 'videoOwnerRenderer').some((owner) => {
    const ids = findAll(owner, 'browseId');
    return ids.includes(channelId) && at(owner, 'membershipButton') !== undefined;
  });
}

export interface MusicSection {
  /** Songs the description's music section lists. */
  songs: number;
  /** Its licensing rows ("UMG (on behalf of Example Records); ASCAP, …"). */
  licensing: string[];
}

/**
 * The description's music section: `videoDescriptionMusicSectionRenderer` with its info rows
 * (SONG, ARTIST, ALBUM, LICENSES), or the older metadata rows ("Licensed to YouTube by"). Null
 * when the page lists no music.
 */
export function musicSection(next: Json): MusicSection | null {
  const sections = findAll(next, 'videoDescriptionMusicSectionRenderer');
  const licensing: string[] = [];
  let songs = 0;
  for (const section of sections) {
    const lockups = findAll(section, 'carouselLockupRenderer');
    songs += Math.max(lockups.length, 1);
    for (const row of findAll(section, 'infoRowRenderer')) {
      if (!/^licen[cs]es?$/i.test((textOf(at(row, 'title')) ?? '').trim())) continue;
      const text = textOf(at(row, 'expandedMetadata')) ?? textOf(at(row, 'defaultMetadata'));
      if (text?.trim()) licensing.push(text.trim());
    }
  }
  for (const row of findAll(next, 'metadataRowRenderer')) {
    if (!/licensed to youtube by/i.test(textOf(at(row, 'title')) ?? '')) continue;
    songs = Math.max(songs, 1);
    const contents = at(row, 'contents');
    const text = Array.isArray(contents) ? contents.map((content) => textOf(content) ?? '').join('; ') : textOf(contents);
    if (text?.trim()) licensing.push(text.trim());
  }
  return songs > 0 || licensing.length > 0 ? { songs, licensing } : null;
}

function arrayAt(node: Json, key: string): Json[] {
  const value = at(node, key);
  return Array.isArray(value) ? value : [];
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
