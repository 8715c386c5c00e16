/**
 * A video from its player answer (videoDetails, microformat, playabilityStatus, caption tracks)
 * and its watch-next answer (the channels it lists, likes, the date as shown).
 */
import type { VideoAvailability } from './types.js';
import { parseAgo, parseCount, parseDateText } from './figures.js';
import { asString, at, findAll, type Json, largestImage, textOf } from './json-walk.js';

export interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  auto: boolean;
}

export interface PlayerVideo {
  videoId: string;
  channelId: string;
  title: string;
  /** null when neither videoDetails nor the microformat gives a length. */
  durationSeconds: number | null;
  /** null when the answer gives no view count. */
  views: number | null;
  likes: number | null;
  keywords: string[];
  category: string | null;
  /** ISO, from the microformat (exact), or null when the answer has none. */
  publishedAt: string | null;
  thumbnailUrl: string;
  availability: VideoAvailability;
  availabilityReason: string | null;
  upcomingStartMs: number | null;
  /** Vertical and short enough to be a short, as the microformat says. */
  shortsEligible: boolean;
  captions: CaptionTrack[];
}

function availabilityOf(player: Json): { availability: VideoAvailability; reason: string | null; startMs: number | null } {
  const status = asString(at(player, 'playabilityStatus', 'status')) ?? 'OK';
  const reason = textOf(at(player, 'playabilityStatus', 'reason')) ?? textOf(findAll(at(player, 'playabilityStatus'), 'subreason')[0]) ?? null;
  const scheduled = Number(asString(findAll(at(player, 'playabilityStatus'), 'scheduledStartTime')[0]));
  const broadcast = at(player, 'microformat', 'playerMicroformatRenderer', 'liveBroadcastDetails');
  const startFromBroadcast = Date.parse(asString(at(broadcast, 'startTimestamp')) ?? '');
  const startMs = scheduled ? scheduled * 1000 : Number.isNaN(startFromBroadcast) ? null : startFromBroadcast;
  if (at(player, 'videoDetails', 'isUpcoming') === true || (status === 'LIVE_STREAM_OFFLINE' && startMs)) return { availability: 'upcoming', reason, startMs };
  if (status !== 'OK') {
    const text = `${reason ?? ''} ${JSON.stringify(at(player, 'playabilityStatus', 'errorScreen') ?? '')}`;
    if (/members?[- ]only|join this channel/i.test(text)) return { availability: 'members_only', reason, startMs: null };
    return { availability: 'unavailable', reason: reason ?? status, startMs: null };
  }
  if (at(player, 'videoDetails', 'isLive') === true || at(broadcast, 'isLiveNow') === true) return { availability: 'live', reason: null, startMs };
  return { availability: 'ok', reason: null, startMs: null };
}

/** A whole number the answer gives as text; null when it gives none (never 0 for "not given"). */
function numberOf(text: string | undefined): number | null {
  if (!text || !/^\d+$/.test(text.trim())) return null;
  return Number(text);
}

function toIso(value: string | undefined): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

/** null when the answer knows nothing of the video (the site's "Video unavailable" for an unknown id). */
export function parsePlayer(player: Json, videoId: string): PlayerVideo | null | { missing: string } {
  const details = at(player, 'videoDetails');
  const micro = at(player, 'microformat', 'playerMicroformatRenderer');
  const { availability, reason, startMs } = availabilityOf(player);
  if (!details && !micro) {
    if (at(player, 'playabilityStatus')) return availability === 'ok' ? { missing: 'videoDetails' } : null;
    return { missing: 'playabilityStatus and videoDetails' };
  }
  const channelId = asString(at(details, 'channelId')) ?? asString(at(micro, 'externalChannelId'));
  if (!channelId) return { missing: 'videoDetails.channelId' };
  const tracks = (at(player, 'captions', 'playerCaptionsTracklistRenderer', 'captionTracks') as Json[] | undefined) ?? [];
  const embedWidth = Number(at(micro, 'embed', 'width') ?? 0);
  const embedHeight = Number(at(micro, 'embed', 'height') ?? 0);
  const duration = numberOf(asString(at(details, 'lengthSeconds')) ?? asString(at(micro, 'lengthSeconds')));
  return {
    videoId: asString(at(details, 'videoId')) ?? videoId,
    channelId,
    title: asString(at(details, 'title')) ?? textOf(at(micro, 'title')) ?? '',
    durationSeconds: duration,
    views: numberOf(asString(at(details, 'viewCount')) ?? asString(at(micro, 'viewCount'))),
    likes: numberOf(asString(at(micro, 'likeCount'))),
    keywords: ((at(details, 'keywords') as string[] | undefined) ?? []).filter((word) => typeof word === 'string'),
    category: asString(at(micro, 'category')) ?? null,
    publishedAt: toIso(asString(at(micro, 'publishDate')) ?? asString(at(micro, 'uploadDate'))),
    thumbnailUrl: largestImage(at(details, 'thumbnail')) || largestImage(at(micro, 'thumbnail')),
    availability,
    availabilityReason: reason,
    upcomingStartMs: startMs,
    shortsEligible: at(micro, 'isShortsEligible') === true || (embedHeight > embedWidth && duration !== null && duration > 0 && duration <= 180),
    captions: tracks
      .map((track) => ({
        baseUrl: asString(at(track, 'baseUrl')) ?? '',
        languageCode: asString(at(track, 'languageCode')) ?? '',
        auto: asString(at(track, 'kind')) === 'asr',
      }))
      .filter((track) => track.baseUrl),
  };
}

export interface WatchNext {
  /** Channels the owner block lists, in order (a collab lists several). */
  channelIds: string[];
  likes: number | null;
  /** The comment count the page shows ("2.7K Comments" → 2700), or null when it shows none (comments off, or not loaded). */
  comments: number | null;
  /** "Aug 2, 2018" as a date, when the page shows one. */
  dateShown: string | null;
  /** "17 hours ago" / "Streamed 2 hours ago" as an estimate (ms), when the page shows a relative date instead. */
  agoShownMs: number | null;
}

/** A watch-next answer names the video's owner block; one that does not is a page not understood (no collab could be seen in it). */
export function parseWatchNext(next: Json, nowMs: number): WatchNext | { missing: string } {
  const owners = findAll(next, 'videoOwnerRenderer');
  if (owners.length === 0) return { missing: 'videoOwnerRenderer (the video\'s channels)' };
  const ids = owners.flatMap((owner) => findAll(owner, 'browseId')).filter((id): id is string => typeof id === 'string' && id.startsWith('UC'));
  const labels = findAll(next, 'accessibilityText').filter((text): text is string => typeof text === 'string');
  const likesLabel = labels.find((text) => /^[\d,.]+\s+likes?$/i.test(text)) ?? labels.find((text) => /along with [\d,]+ other/i.test(text));
  const likes = likesLabel ? /along with ([\d,]+)/i.exec(likesLabel) ? Number(/along with ([\d,]+)/i.exec(likesLabel)![1]!.replace(/,/g, '')) + 1 : parseCount(likesLabel)?.value ?? null : null;
  const primary = findAll(next, 'videoPrimaryInfoRenderer')[0];
  const dateText = textOf(at(primary, 'dateText')) ?? textOf(at(primary, 'relativeDateText'));
  return {
    channelIds: [...new Set(ids)],
    likes,
    comments: commentCount(next),
    dateShown: parseDateText(dateText),
    agoShownMs: parseAgo(dateText, nowMs) ?? parseAgo(textOf(at(primary, 'relativeDateText')), nowMs),
  };
}

/**
 * The count the comments header shows: the entry point under the video (`commentsEntryPointHeaderRenderer`)
 * or the comments panel's title (`engagement-panel-comments-section`).
 */
function commentCount(next: Json): number | null {
  const entry = findAll(next, 'commentsEntryPointHeaderRenderer').map((header) => textOf(at(header, 'commentCount')));
  const panels = findAll(next, 'engagementPanelSectionListRenderer')
    .filter((panel) => asString(at(panel, 'panelIdentifier')) === 'engagement-panel-comments-section')
    .map((panel) => textOf(findAll(panel, 'engagementPanelTitleHeaderRenderer').map((header) => at(header, 'contextualInfo'))[0]));
  for (const text of [...entry, ...panels]) {
    const count = parseCount(text ?? undefined);
    if (count) return count.value;
  }
  return null;
}
