/**
 * The live platform: the real site read through InnerTube (youtubei.js's session and requests,
 * our parsers of its answers). Every read keeps its raw responses while it runs, so a page the
 * parsers do not understand is saved for a bug report. Reads only the sample world can answer
 * (networks, ad pages, external monetization) answer 501 `not_implemented_on_live`.
 */
import type { PlatformMedia } from '../media.js';
import type { ChannelVideosOptions, NetworkReads, PlatformProvider } from '../platform.js';
import type { AdPage } from '../page-signals.js';
import type { PublicPageReads } from '../public-pages.js';
import type { Transcript } from '../transcript.js';
import type { ChannelPresence, ContentType } from '../types.js';
import { parseAboutView } from './about-view.js';
import { readAdPages } from './ad-pages.js';
import { siteLanguages, SITE_CATEGORIES } from './catalogue.js';
import { type ChannelHeader, parseChannelPage, type TabName } from './channel-page.js';
import { readChannelPages } from './channel-pages.js';
import { notOnLive } from './errors.js';
import { countryCode, parseCount, parseDateText, type ReadCount } from './figures.js';
import type { InnertubeClient } from './innertube.js';
import { asString, at } from './json-walk.js';
import { withRawTrail } from './raw-responses.js';
import type { OutsideReader } from './outside-page.js';
import { parseChannelReference } from './references.js';
import { parseTabPage, type TabItem } from './tab-items.js';
import { parseTimedText } from './timedtext.js';
import type { LiveChannel, LiveVideo } from './types.js';
import { type CaptionTrack, parsePlayer, parseWatchNext, type PlayerVideo } from './video-page.js';

/** Pages of a tab followed at most for one read (30 items a page). */
const MAX_TAB_PAGES = 40;
const DEFAULT_LIMIT = 30;
/** A channel page just read serves a read of its tabs right after (a sweep reads both): no second request. */
const HEADER_REUSE_MS = 60_000;
const HEADERS_KEPT = 64;

const isoOf = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * What a channel publishes, as far as its page's tabs tell: the site shows a Shorts tab only to
 * channels with shorts and a Videos or Live tab only to channels with long videos or streams.
 */
export function contentTypeOfTabs(tabs: Partial<Record<TabName, string>>): ContentType | null {
  const long = Boolean(tabs.videos ?? tabs.streams);
  if (long && tabs.shorts) return 'mixed';
  if (long) return 'longform';
  return tabs.shorts ? 'shorts' : null;
}

export class LivePlatform implements PlatformProvider {
  readonly source = 'live' as const;
  /** Channel page headers read in the last minute (real time), newest last. */
  private readonly recentHeaders = new Map<string, { header: ChannelHeader; readAt: number }>();

  /** The channel checks' reads: a channel's pages, and the pages outside the site it links to. */
  readonly publicPages: PublicPageReads;

  constructor(
    private readonly client: InnertubeClient,
    private readonly clock: () => number = Date.now,
    outsidePage: OutsideReader = async (url) => ({ ok: false, url, reason: 'pages outside the site are not read here' }),
    /** Video, audio and caption files (yt-dlp and ffmpeg: media/). */
    readonly media?: PlatformMedia,
  ) {
    this.publicPages = {
      channelPages: (channelId, options) => readChannelPages(this.client, this, channelId, options),
      outsidePage,
    };
  }

  nowMs(): number {
    return this.clock();
  }

  /** Any reference a user may give: "@handle", a channel id, `/channel/`, `/c/`, `/user/`, `/@` and video URLs. */
  async resolveHandle(reference: string): Promise<LiveChannel | null> {
    const channelId = await this.resolveChannelId(reference);
    return channelId ? this.channelById(channelId) : null;
  }

  /** The channel id a reference names, through the site's URL resolution; null when the site knows none. */
  resolveChannelId(reference: string): Promise<string | null> {
    return withRawTrail(async () => {
      const parsed = parseChannelReference(reference);
      if (!parsed) return null;
      if (parsed.kind === 'channel_id') return parsed.channelId;
      if (parsed.kind === 'video') return (await this.readPlayer(parsed.videoId))?.channelId ?? null;
      const { data } = await this.client.call('/navigation/resolve_url', { url: parsed.url });
      if (data === null) return null;
      const browseId = asString(at(data, 'endpoint', 'browseEndpoint', 'browseId'));
      if (browseId?.startsWith('UC')) return browseId;
      if (at(data, 'endpoint') === undefined) this.client.notUnderstood('resolve_url', 'endpoint');
      return null; // the URL names something that is not a channel
    });
  }

  async channelById(channelId: string): Promise<LiveChannel | null> {
    const presence = await this.channelPresence(channelId);
    return presence.state === 'active' ? (presence.channel as LiveChannel) : null;
  }

  channelPresence(channelId: string): Promise<ChannelPresence> {
    return withRawTrail(async () => {
      const { data } = await this.client.call('/browse', { browseId: channelId });
      if (data === null) return { state: 'missing', channel_id: channelId };
      const page = parseChannelPage(data);
      if (page.state === 'unknown') return this.client.notUnderstood(`browse ${channelId}`, `the channel page has no ${page.missing}`);
      if (page.state === 'terminated') return { state: 'terminated', channel_id: channelId, reason: page.reason };
      if (page.state === 'missing') return { state: 'missing', channel_id: channelId };
      this.rememberHeader(page.header);
      return { state: 'active', channel: await this.withAbout(page.header) };
    });
  }

  private async withAbout(header: ChannelHeader): Promise<LiveChannel> {
    if (!header.aboutToken) this.client.notUnderstood(`browse ${header.channelId}`, "the page header's about-panel continuation");
    const { data } = await this.client.call('/browse', { continuation: header.aboutToken });
    const about = data === null ? null : parseAboutView(data);
    if (!about) this.client.notUnderstood(`about ${header.channelId}`, 'aboutChannelViewModel');
    const count = (aboutText: string | null, headerText: string | null): ReadCount | null => parseCount(aboutText ?? undefined) ?? parseCount(headerText ?? undefined);
    const subscribers = count(about.subscriberText, header.subscriberText);
    const views = count(about.viewText, null);
    const videos = count(about.videoText, header.videoCountText);
    return {
      channel_id: header.channelId,
      handle: header.handle ?? '',
      title: header.title,
      description: about.description ?? header.description,
      language: null,
      language_code: null,
      country: countryCode(about.country ?? undefined),
      category: null,
      content_type: contentTypeOfTabs(header.tabs),
      subscribers: subscribers?.value ?? null,
      total_views: views?.value ?? null,
      video_count: videos?.value ?? null,
      created_at: parseDateText(about.joinedText ?? undefined) ?? '',
      thumbnail_url: header.thumbnailUrl,
      counts_exact: { subscribers: subscribers?.exact ?? false, total_views: views?.exact ?? false, video_count: videos?.exact ?? false },
      links: about.links,
      badges: header.badges,
    };
  }

  /**
   * Newest first, following continuations only as far as `limit` needs. Without `kind`: the videos
   * and live tabs (upcoming first); `short` reads the shorts tab, whose listing gives no dates.
   */
  channelVideos(channelId: string, options: ChannelVideosOptions = {}): Promise<LiveVideo[]> {
    return withRawTrail(async () => {
      const limit = options.limit ?? DEFAULT_LIMIT;
      const header = this.recentHeader(channelId) ?? (await this.readHeader(channelId));
      if (!header) return [];
      const tabs: TabName[] = options.kind === 'short' ? ['shorts'] : options.kind === 'long' ? ['videos'] : ['videos', 'streams'];
      const items: TabItem[] = [];
      for (const tab of tabs) {
        const params = header.tabs[tab];
        if (params) items.push(...(await this.readTab(channelId, tab, params, limit, options.kind)));
      }
      const wanted = items.filter((item) => !options.kind || item.kind === options.kind);
      const rank = (item: TabItem) => (item.kind === 'upcoming' ? Infinity : (item.publishedMs ?? -Infinity));
      // A stable sort keeps each tab's own order where dates are missing or equal.
      return wanted
        .sort((a, b) => rank(b) - rank(a))
        .slice(0, limit)
        .map((item) => this.videoOfItem(channelId, item));
    });
  }

  /** The channel page's header; null when the channel is terminated or gone. */
  private async readHeader(channelId: string): Promise<ChannelHeader | null> {
    const { data } = await this.client.call('/browse', { browseId: channelId });
    if (data === null) return null;
    const page = parseChannelPage(data);
    if (page.state === 'unknown') return this.client.notUnderstood(`browse ${channelId}`, `the channel page has no ${page.missing}`);
    if (page.state !== 'active') return null;
    this.rememberHeader(page.header);
    return page.header;
  }

  private rememberHeader(header: ChannelHeader): void {
    this.recentHeaders.delete(header.channelId);
    this.recentHeaders.set(header.channelId, { header, readAt: Date.now() });
    if (this.recentHeaders.size > HEADERS_KEPT) this.recentHeaders.delete(this.recentHeaders.keys().next().value!);
  }

  private recentHeader(channelId: string): ChannelHeader | null {
    const recent = this.recentHeaders.get(channelId);
    return recent && Date.now() - recent.readAt < HEADER_REUSE_MS ? recent.header : null;
  }

  private async readTab(channelId: string, tab: TabName, params: string, limit: number, kind: ChannelVideosOptions['kind']): Promise<TabItem[]> {
    const items: TabItem[] = [];
    let request: Record<string, unknown> = { browseId: channelId, params };
    for (let pageNo = 0; pageNo < MAX_TAB_PAGES; pageNo++) {
      const { data } = await this.client.call('/browse', request);
      if (data === null) break;
      const page = parseTabPage(data, this.clock());
      if (!page) return this.client.notUnderstood(`${tab} tab of ${channelId}`, 'richGridRenderer or appendContinuationItemsAction');
      items.push(...page.items);
      const enough = items.filter((item) => !kind || item.kind === kind).length >= limit;
      if (enough || !page.continuation) break;
      request = { continuation: page.continuation };
    }
    return items;
  }

  private videoOfItem(channelId: string, item: TabItem): LiveVideo {
    return {
      video_id: item.videoId,
      channel_id: channelId,
      kind: item.kind,
      title: item.title,
      views: item.views,
      likes: null,
      comments: null,
      duration_seconds: item.durationSeconds,
      published_at: item.publishedMs === null ? null : isoOf(item.publishedMs),
      thumbnail_url: item.thumbnailUrl,
      availability: item.kind === 'upcoming' ? 'upcoming' : item.live ? 'live' : 'ok',
      availability_reason: null,
      keywords: [],
      category: null,
      channel_ids: [channelId],
      published_exact: false,
    };
  }

  private async readPlayer(videoId: string): Promise<PlayerVideo | null> {
    const { data } = await this.client.call('/player', { videoId });
    if (data === null) return null;
    const video = parsePlayer(data, videoId);
    if (video && 'missing' in video) return this.client.notUnderstood(`player ${videoId}`, video.missing);
    return video;
  }

  videoById(videoId: string): Promise<LiveVideo | null> {
    return withRawTrail(async () => {
      const player = await this.readPlayer(videoId);
      if (!player) return null;
      const { data } = await this.client.call('/next', { videoId });
      const next = data === null ? null : parseWatchNext(data, this.clock());
      if (next && 'missing' in next) return this.client.notUnderstood(`next ${videoId}`, next.missing);
      const channelIds = [player.channelId, ...(next?.channelIds ?? []).filter((id) => id !== player.channelId)];
      const shown = next?.dateShown ? `${next.dateShown}T00:00:00Z` : next?.agoShownMs ? isoOf(next.agoShownMs) : null;
      const published = player.publishedAt ?? shown;
      const kind = player.availability === 'upcoming' ? 'upcoming' : player.shortsEligible ? 'short' : 'long';
      return {
        video_id: player.videoId,
        channel_id: player.channelId,
        kind,
        title: player.title,
        views: player.views,
        likes: player.likes ?? next?.likes ?? null,
        comments: next?.comments ?? null,
        duration_seconds: kind === 'upcoming' ? 0 : player.durationSeconds,
        published_at: kind === 'upcoming' && player.upcomingStartMs ? isoOf(player.upcomingStartMs) : published,
        thumbnail_url: player.thumbnailUrl,
        availability: player.availability,
        availability_reason: player.availabilityReason,
        keywords: player.keywords,
        category: player.category,
        channel_ids: channelIds,
        // A date as shown ("Aug 2, 2018") is exact to the day; "17 hours ago" only an estimate.
        published_exact: player.publishedAt !== null || Boolean(next?.dateShown),
        spoken_language: player.captions.find((track) => track.auto)?.languageCode.split('-')[0] ?? null,
      };
    });
  }

  /** English captions: a human track first, else the auto-generated one (timed text, json3). */
  transcript(videoId: string): Promise<Transcript | null> {
    return withRawTrail(async () => {
      const player = await this.readPlayer(videoId);
      if (!player) return null;
      const english = player.captions.filter((track) => track.languageCode === 'en' || track.languageCode.startsWith('en-'));
      const track: CaptionTrack | undefined = english.find((candidate) => !candidate.auto) ?? english.find((candidate) => candidate.auto);
      if (!track) return null;
      const url = new URL(track.baseUrl);
      url.searchParams.set('fmt', 'json3');
      const { text } = await this.client.get(url.href);
      const cues = parseTimedText(text);
      if (!cues) return this.client.notUnderstood(`captions of ${videoId}`, 'timed text in json3, srv3 or srv1');
      return { video_id: videoId, language: 'en', source: track.auto ? 'auto' : 'human', cues };
    });
  }

  languages(): ReadonlyArray<{ name: string; code: string }> {
    return siteLanguages();
  }

  categories(): readonly string[] {
    return SITE_CATEGORIES;
  }

  readonly networks: NetworkReads = {
    ownerOf: () => {
      throw notOnLive('Managed networks (CMS owners)');
    },
    network: () => {
      throw notOnLive('Managed networks (CMS owners)');
    },
  };

  /** The newest longform watch pages (up to 5), each as it shows ads (or not) to an anonymous reader now. */
  readAdPages(channelId: string): Promise<AdPage[]> {
    return readAdPages(this.client, this, channelId);
  }

  externalMonetization(): never {
    throw notOnLive('External monetization reads');
  }
}
