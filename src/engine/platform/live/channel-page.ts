/**
 * A channel's browse page (home or any tab): the page header (`pageHeaderViewModel`), the channel
 * metadata, the tabs' endpoints, the about panel's continuation, or an alert saying the account was
 * terminated or does not exist.
 */
import type { ChannelBadge } from './types.js';
import { asString, at, findAll, findFirst, largestImage, type Json, textOf } from './json-walk.js';

export type TabName = 'videos' | 'shorts' | 'streams';

export interface ChannelHeader {
  channelId: string;
  title: string;
  handle: string | null;
  description: string;
  thumbnailUrl: string;
  /** The header rows' texts: "8.84k subscribers", "258 videos". */
  subscriberText: string | null;
  videoCountText: string | null;
  badges: ChannelBadge[];
  /** Each tab's browse params, when the page lists it. */
  tabs: Partial<Record<TabName, string>>;
  /** The token that opens the about panel. */
  aboutToken: string | null;
}

export type ChannelPage = { state: 'active'; header: ChannelHeader } | { state: 'terminated'; reason: string } | { state: 'missing'; reason: string };

const TERMINATED = /terminated|suspended|violat|removed/i;

/** An ERROR alert: "This account has been terminated…", "This channel does not exist." */
function alertOf(page: Json): string | null {
  for (const alert of [...findAll(at(page, 'alerts'), 'alertRenderer'), ...findAll(at(page, 'alerts'), 'alertWithButtonRenderer')]) {
    if (asString(at(alert, 'type')) === 'ERROR') return textOf(at(alert, 'text')) ?? 'the channel is not available';
  }
  return null;
}

function tabParams(page: Json): Partial<Record<TabName, string>> {
  const tabs: Partial<Record<TabName, string>> = {};
  for (const tab of findAll(at(page, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'), 'tabRenderer')) {
    const url = asString(at(tab, 'endpoint', 'commandMetadata', 'webCommandMetadata', 'url')) ?? '';
    const params = asString(at(tab, 'endpoint', 'browseEndpoint', 'params'));
    const name = /\/(videos|shorts|streams)$/.exec(url)?.[1] as TabName | undefined;
    if (name && params) tabs[name] = params;
  }
  return tabs;
}

function badgesOf(titleNode: Json, page: Json): ChannelBadge[] {
  const icons = new Set(findAll(titleNode, 'imageName').filter((name): name is string => typeof name === 'string'));
  const labels = findAll(page, 'badges').flatMap((list) => findAll(list, 'tooltip').concat(findAll(list, 'iconType')));
  const badges: ChannelBadge[] = [];
  if (icons.has('CHECK_CIRCLE_FILLED') || labels.includes('Verified') || labels.includes('CHECK_CIRCLE_THICK')) badges.push('verified');
  if (icons.has('AUDIO_BADGE') || icons.has('MUSIC_FILLED') || labels.includes('Official Artist Channel') || labels.includes('OFFICIAL_ARTIST_BADGE')) badges.push('artist');
  return badges;
}

/** The metadata rows of the page header: handle, subscribers, videos. */
function headerRows(viewModel: Json): string[] {
  return findAll(at(viewModel, 'metadata'), 'metadataParts').flatMap((parts) => (Array.isArray(parts) ? parts.map((part) => textOf(at(part, 'text')) ?? '') : []));
}

export function parseChannelPage(page: Json): ChannelPage | { state: 'unknown'; missing: string } {
  const alert = alertOf(page);
  const metadata = at(page, 'metadata', 'channelMetadataRenderer');
  if (alert && !metadata) return TERMINATED.test(alert) ? { state: 'terminated', reason: alert } : { state: 'missing', reason: alert };
  if (!metadata) return { state: 'unknown', missing: 'metadata.channelMetadataRenderer' };
  const channelId = asString(at(metadata, 'externalId'));
  if (!channelId) return { state: 'unknown', missing: 'channelMetadataRenderer.externalId' };

  const viewModel = findFirst(at(page, 'header'), 'pageHeaderViewModel');
  const rows = viewModel ? headerRows(viewModel) : [];
  const vanity = asString(at(metadata, 'vanityChannelUrl')) ?? (at(metadata, 'ownerUrls', 0) as string | undefined) ?? '';
  const handle = rows.find((row) => row.startsWith('@')) ?? /\/(@[^/?#]+)/.exec(vanity)?.[1] ?? null;
  const headerToken = findAll(at(page, 'header'), 'continuationCommand').map((command) => asString(at(command, 'token')))[0] ?? null;
  return {
    state: 'active',
    header: {
      channelId,
      title: asString(at(metadata, 'title')) ?? textOf(findFirst(viewModel, 'title')) ?? '',
      handle: handle ? decodeURIComponent(handle) : null,
      description: asString(at(metadata, 'description')) ?? '',
      thumbnailUrl: largestImage(at(metadata, 'avatar')),
      subscriberText: rows.find((row) => /subscriber/i.test(row)) ?? null,
      videoCountText: rows.find((row) => /\bvideos?\b/i.test(row)) ?? null,
      badges: badgesOf(at(viewModel, 'title'), at(page, 'header')),
      tabs: tabParams(page),
      aboutToken: headerToken,
    },
  };
}
