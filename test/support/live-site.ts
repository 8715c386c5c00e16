/**
 * A small made-up video site for tests of the live platform, answered by the fixture server in the
 * site's 2025–2026 shapes (the same as test/fixtures/platform: `pageHeaderViewModel`, the about
 * panel's `aboutChannelViewModel`, `lockupViewModel` tab items, player answers with caption tracks,
 * watch-next owners and collab dialogs). Unlike the files there, its figures live in a model the
 * test changes as its clock moves: a channel gains views, is terminated; a video publishes when
 * the clock reaches its date (add every channel and video before starting the server).
 */
import type { FixtureExchange, RenderedAnswer } from './platform-fixture-server.js';

export const VIDEOS_PARAMS = 'EgZ2aWRlb3PyBgQKAjoA';
export const SHORTS_PARAMS = 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D';

/** The reads the site answers, by kind: what a fault test breaks. */
export type SiteRead = 'resolve' | 'home' | 'about' | 'videos' | 'shorts' | 'player' | 'next' | 'captions';

/** How a read fails: a bare 404 or 500, no answer (a timeout), JSON cut short, or a page of another shape. */
export type ReadFault = 'http404' | 'http500' | 'timeout' | 'malformed' | 'not-understood';

function faultAnswer(fault: ReadFault): RenderedAnswer {
  if (fault === 'http404') return { status: 404, body: 'Not Found' };
  if (fault === 'http500') return { status: 500, body: '{"error":{"code":500,"message":"Internal error encountered.","status":"INTERNAL"}}' };
  if (fault === 'timeout') return { hang: true };
  if (fault === 'malformed') return { status: 200, body: '{"responseContext":{"visitorData":"fixture"},"contents":{"twoColumn' };
  return { status: 200, body: '{"responseContext":{"visitorData":"fixture"},"frameworkUpdates":{}}' };
}

export interface SiteVideo {
  id: string;
  title: string;
  /** null: the site shows no count (its listing and player leave it out). */
  views: number | null;
  /** The comment count the watch page shows ("2.7K"); absent: it shows none (comments off). */
  comments?: number;
  /** Milliseconds since the epoch. */
  publishedMs: number;
  /** Every channel the video lists, its uploader first. */
  channels: string[];
  kind?: 'long' | 'short';
  /** Spoken language (its auto-generated captions' language code). */
  language?: string;
  durationSeconds?: number;
}

export interface SiteChannel {
  id: string;
  handle: string;
  title: string;
  subscribers: number;
  views: number;
  videoCount: number;
  joined: string;
  country?: string;
  description?: string;
  /** Tabs the channel page lists (default: videos). */
  tabs?: Array<'videos' | 'shorts'>;
  state?: 'active' | 'terminated' | 'missing';
  /** Newest first. */
  uploads: SiteVideo[];
  /** Show the subscriber count abbreviated, as the site does ("1.23M subscribers"). */
  abbreviated?: boolean;
  /** Hide the subscriber count. */
  hideSubscribers?: boolean;
  /** Legacy addresses the resolver knows for the channel ("user/janecooks2009", "c/JaneCooks"). */
  legacy?: string[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const number = (value: number) => value.toLocaleString('en-US');
const joinedText = (date: string) => {
  const [year, month, day] = date.split('-').map(Number);
  return `Joined ${MONTHS[month! - 1]} ${day}, ${year}`;
};

/** The about panel as the browse continuation carries it, around the channel's view model. */
export function aboutResponse(aboutChannelViewModel: object): object {
  return {
    responseContext: { visitorData: 'fixture' },
    onResponseReceivedEndpoints: [
      { appendContinuationItemsAction: { continuationItems: [{ aboutChannelRenderer: { metadata: { aboutChannelViewModel } } }] } },
    ],
  };
}

function abbreviate(value: number): string {
  if (value >= 1e6) return `${(value / 1e6).toFixed(2).replace(/\.?0+$/, '')}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(2).replace(/\.?0+$/, '')}K`;
  return String(value);
}

function ago(nowMs: number, thenMs: number): string {
  const hours = Math.max(1, Math.floor((nowMs - thenMs) / 3_600_000));
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? '' : 's'} ago`;
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

export class LiveSite {
  readonly channels = new Map<string, SiteChannel>();
  readonly videos = new Map<string, SiteVideo>();
  /** URLs the resolver answers with its NOT_FOUND (the site's own word that no channel has them). */
  readonly unknownUrls: string[] = [];
  /** Reads that fail, by `<read>:<channel id>` (a video's reads by its uploader's id). */
  readonly faults = new Map<string, ReadFault>();

  constructor(private readonly now: () => number) {}

  add(channel: SiteChannel): SiteChannel {
    this.channels.set(channel.id, channel);
    for (const video of channel.uploads) this.videos.set(video.id, video);
    return channel;
  }

  /** A handle no channel has: the resolver says so (HTTP 404 with its NOT_FOUND answer). */
  unknownHandle(handle: string): void {
    this.unknownUrls.push(`https://www.youtube.com/${handle}`);
  }

  private channel(id: string): SiteChannel {
    const found = this.channels.get(id);
    if (!found) throw new Error(`the test site has no channel ${id}`);
    return found;
  }

  home(id: string): object {
    const channel = this.channel(id);
    if (channel.state === 'terminated') {
      return { responseContext: { visitorData: 'fixture' }, alerts: [{ alertRenderer: { type: 'ERROR', text: { simpleText: "This account has been terminated for a violation of YouTube's Terms of Service." } } }] };
    }
    if (channel.state === 'missing') {
      return { responseContext: { visitorData: 'fixture' }, alerts: [{ alertRenderer: { type: 'ERROR', text: { simpleText: 'This channel does not exist.' } } }] };
    }
    const subscriberRow = channel.hideSubscribers ? [] : [{ text: { content: `${abbreviate(channel.subscribers)} subscribers` } }];
    const tab = (title: string, path: string, params: string) => ({
      tabRenderer: { title, endpoint: { commandMetadata: { webCommandMetadata: { url: `/${channel.handle}/${path}` } }, browseEndpoint: { browseId: id, params } } },
    });
    const tabs = channel.tabs ?? ['videos'];
    return {
      responseContext: { visitorData: 'fixture' },
      header: {
        pageHeaderRenderer: {
          pageTitle: channel.title,
          content: {
            pageHeaderViewModel: {
              title: { dynamicTextViewModel: { text: { content: channel.title } } },
              image: { decoratedAvatarViewModel: { avatar: { avatarViewModel: { image: { sources: [{ url: `https://yt3.example/${id}=s160`, width: 160, height: 160 }] } } } } },
              metadata: {
                contentMetadataViewModel: {
                  metadataRows: [
                    { metadataParts: [{ text: { content: channel.handle } }] },
                    { metadataParts: [...subscriberRow, { text: { content: `${number(channel.videoCount)} videos` } }] },
                  ],
                },
              },
              description: {
                descriptionPreviewViewModel: {
                  description: { content: channel.description ?? '' },
                  rendererContext: { commandContext: { onTap: { innertubeCommand: { showEngagementPanelEndpoint: { engagementPanel: { engagementPanelSectionListRenderer: { content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token: `about-${id}`, request: 'CONTINUATION_REQUEST_TYPE_BROWSE' } } } }] } }] } } } } } } } } },
                },
              },
            },
          },
        },
      },
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [
            { tabRenderer: { title: 'Home', selected: true, endpoint: { commandMetadata: { webCommandMetadata: { url: `/${channel.handle}/featured` } }, browseEndpoint: { browseId: id, params: 'EghmZWF0dXJlZPIGBAoCMgA%3D' } } } },
            ...(tabs.includes('videos') ? [tab('Videos', 'videos', VIDEOS_PARAMS)] : []),
            ...(tabs.includes('shorts') ? [tab('Shorts', 'shorts', SHORTS_PARAMS)] : []),
          ],
        },
      },
      metadata: {
        channelMetadataRenderer: {
          title: channel.title,
          description: channel.description ?? '',
          externalId: id,
          vanityChannelUrl: `http://www.youtube.com/${channel.handle}`,
          avatar: { thumbnails: [{ url: `https://yt3.example/${id}=s900`, width: 900, height: 900 }] },
        },
      },
    };
  }

  about(id: string): object {
    const channel = this.channel(id);
    const subscribers = channel.abbreviated ? abbreviate(channel.subscribers) : number(channel.subscribers);
    return aboutResponse({
      description: channel.description ?? '',
      country: channel.country ?? 'United States',
      ...(channel.hideSubscribers ? {} : { subscriberCountText: `${subscribers} subscribers` }),
      viewCountText: `${number(channel.views)} views`,
      videoCountText: `${number(channel.videoCount)} videos`,
      joinedDateText: { content: joinedText(channel.joined) },
      canonicalChannelUrl: `http://www.youtube.com/${channel.handle}`,
      channelId: id,
      links: [],
    });
  }

  videosTab(id: string, kind: 'long' | 'short'): object {
    const channel = this.channel(id);
    const now = this.now();
    const items = channel.uploads
      .filter((video) => (video.kind ?? 'long') === kind && video.publishedMs <= now)
      .map((video) =>
        kind === 'short'
          ? {
              richItemRenderer: {
                content: {
                  shortsLockupViewModel: {
                    entityId: `shorts-shelf-item-${video.id}`,
                    onTap: { innertubeCommand: { reelWatchEndpoint: { videoId: video.id } } },
                    overlayMetadata: { primaryText: { content: video.title }, ...(video.views === null ? {} : { secondaryText: { content: `${abbreviate(video.views)} views` } }) },
                  },
                },
              },
            }
          : {
              richItemRenderer: {
                content: {
                  lockupViewModel: {
                    contentId: video.id,
                    contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
                    contentImage: {
                      thumbnailViewModel: {
                        image: { sources: [{ url: `https://i.ytimg.example/vi/${video.id}/hq.jpg`, width: 336, height: 188 }] },
                        overlays: [{ thumbnailBottomOverlayViewModel: { badges: [{ thumbnailBadgeViewModel: { text: clock(video.durationSeconds ?? 600) } }] } }],
                      },
                    },
                    metadata: {
                      lockupMetadataViewModel: {
                        title: { content: video.title },
                        metadata: { contentMetadataViewModel: { metadataRows: [{ metadataParts: [...(video.views === null ? [] : [{ text: { content: `${number(video.views)} views` } }]), { text: { content: ago(now, video.publishedMs) } }] }] } },
                      },
                    },
                  },
                },
              },
            },
      );
    return {
      responseContext: { visitorData: 'fixture' },
      contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { title: kind === 'short' ? 'Shorts' : 'Videos', selected: true, content: { richGridRenderer: { contents: items } } } }] } },
    };
  }

  player(videoId: string): object {
    const video = this.videos.get(videoId)!;
    const host = video.channels[0]!;
    const captions = video.language
      ? { captions: { playerCaptionsTracklistRenderer: { captionTracks: [{ baseUrl: `https://www.youtube.com/api/timedtext?v=${videoId}&lang=${video.language}&kind=asr`, languageCode: video.language, kind: 'asr' }] } } }
      : {};
    const published = new Date(video.publishedMs).toISOString().replace('.000Z', '+00:00');
    return {
      responseContext: { visitorData: 'fixture' },
      playabilityStatus: { status: 'OK' },
      ...captions,
      videoDetails: { videoId, title: video.title, lengthSeconds: String(video.durationSeconds ?? 600), channelId: host, ...(video.views === null ? {} : { viewCount: String(video.views) }), isLiveContent: false },
      microformat: {
        playerMicroformatRenderer: {
          title: { simpleText: video.title },
          externalChannelId: host,
          ...(video.views === null ? {} : { viewCount: String(video.views) }),
          category: 'Howto & Style',
          publishDate: published,
          isShortsEligible: video.kind === 'short',
          embed: { width: 1280, height: 720 },
        },
      },
    };
  }

  next(videoId: string): object {
    const video = this.videos.get(videoId)!;
    const channels = video.channels.map((id) => this.channels.get(id));
    const owner =
      video.channels.length === 1
        ? { videoOwnerRenderer: { title: { runs: [{ text: channels[0]?.title ?? '', navigationEndpoint: { browseEndpoint: { browseId: video.channels[0] } } }] } } }
        : {
            videoOwnerRenderer: {
              attributedTitle: { content: channels.map((channel) => channel?.title ?? '').join(' and ') },
              navigationEndpoint: {
                showDialogCommand: {
                  panelLoadingStrategy: {
                    inlineContent: {
                      dialogViewModel: {
                        header: { dialogHeaderViewModel: { headline: { content: 'Collaborators' } } },
                        customContent: {
                          listViewModel: {
                            listItems: video.channels.map((id, index) => ({
                              listItemViewModel: { title: { content: channels[index]?.title ?? id }, rendererContext: { commandContext: { onTap: { innertubeCommand: { browseEndpoint: { browseId: id } } } } } },
                            })),
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          };
    return {
      responseContext: { visitorData: 'fixture' },
      contents: {
        twoColumnWatchNextResults: {
          results: {
            results: {
              contents: [
                { videoPrimaryInfoRenderer: { title: { runs: [{ text: video.title }] } } },
                { videoSecondaryInfoRenderer: { owner } },
                ...(video.comments === undefined
                  ? []
                  : [{ itemSectionRenderer: { sectionIdentifier: 'comments-entry-point', contents: [{ commentsEntryPointHeaderRenderer: { commentCount: { simpleText: abbreviate(video.comments) } } }] } }]),
              ],
            },
          },
        },
      },
    };
  }

  /** Every exchange the site answers (channels and videos added later are answered too: bodies are made per request). */
  exchanges(): FixtureExchange[] {
    const out: FixtureExchange[] = [];
    const post = (endpoint: string, key: Record<string, string>, render: () => object, read?: `${SiteRead}:${string}`) =>
      out.push({
        method: 'POST',
        path: `/youtubei/v1/${endpoint}`,
        key,
        render: () => {
          const fault = read && this.faults.get(read);
          return fault ? faultAnswer(fault) : JSON.stringify(render());
        },
      });
    for (const channel of this.channels.values()) {
      post('navigation/resolve_url', { url: `https://www.youtube.com/${channel.handle}` }, () => ({
        responseContext: { visitorData: 'fixture' },
        endpoint: { browseEndpoint: { browseId: channel.id, canonicalBaseUrl: `/${channel.handle}` } },
      }), `resolve:${channel.id}`);
      for (const legacy of channel.legacy ?? []) {
        post('navigation/resolve_url', { url: `https://www.youtube.com/${legacy}` }, () => ({
          responseContext: { visitorData: 'fixture' },
          endpoint: { browseEndpoint: { browseId: channel.id, canonicalBaseUrl: `/${legacy}` } },
        }), `resolve:${channel.id}`);
      }
      post('browse', { browseId: channel.id }, () => this.home(channel.id), `home:${channel.id}`);
      post('browse', { continuation: `about-${channel.id}` }, () => this.about(channel.id), `about:${channel.id}`);
      post('browse', { browseId: channel.id, params: VIDEOS_PARAMS }, () => this.videosTab(channel.id, 'long'), `videos:${channel.id}`);
      post('browse', { browseId: channel.id, params: SHORTS_PARAMS }, () => this.videosTab(channel.id, 'short'), `shorts:${channel.id}`);
    }
    for (const url of this.unknownUrls) {
      out.push({ method: 'POST', path: '/youtubei/v1/navigation/resolve_url', key: { url }, status: 404, body: JSON.stringify({ error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } }) });
    }
    for (const video of this.videos.values()) {
      post('player', { videoId: video.id }, () => this.player(video.id), `player:${video.channels[0]}`);
      post('next', { videoId: video.id }, () => this.next(video.id), `next:${video.channels[0]}`);
      if (video.language) {
        const read = `captions:${video.channels[0]}`;
        const cues = { events: [{ tStartMs: 0, dDurationMs: 2_000, segs: [{ utf8: `${video.title}, spoken.` }] }] };
        out.push({
          method: 'GET',
          path: '/api/timedtext',
          key: { v: video.id, lang: video.language, kind: 'asr', fmt: 'json3' },
          render: () => {
            const fault = this.faults.get(read);
            return fault ? faultAnswer(fault) : JSON.stringify(cues);
          },
        });
      }
    }
    return out;
  }
}
