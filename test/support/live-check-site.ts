/**
 * A made-up video site for the channel checks on the live platform: channels, their newest videos
 * and watch pages, written as the site's answers in its 2025–2026 shapes (`pageHeaderViewModel`
 * channel pages, `aboutChannelViewModel`, `lockupViewModel` tab items, WEB player answers with their
 * CSI tracking parameters, `adPlacements` and `playerAds`, watch-next answers with the owner block's
 * membership button and the structured description's music section), as exchanges for the fixture
 * server (test/support/platform-fixture-server.ts). The shapes follow the project's fixtures in
 * test/fixtures/platform and were checked against the real recordings (scripts/replay-check-recordings.mjs).
 * Every id, name, figure and host is made up (hosts under `.example`).
 */
import { aboutResponse } from './live-site.js';
import type { FixtureExchange } from './platform-fixture-server.js';

export const VIDEOS_TAB = 'EgZ2aWRlb3PyBgQKAjoA';
/** The fixtures' "now": listings say "2 days ago" relative to it. */
export const SITE_NOW = Date.parse('2026-11-24T12:00:00Z');

export type AdsShown = 'yt_ad' | 'placements' | 'player_ads' | 'none' | 'silent';

export interface SiteVideo {
  id: string;
  title: string;
  /** "2 days ago". */
  ago: string;
  views?: number;
  description?: string;
  /** What the player answer says about ads: `silent` carries no ad report at all. */
  ads?: AdsShown;
  /** A player that does not play: an age gate (sign-in), members only, or a bot check. */
  playability?: 'age_gate' | 'members_only' | 'bot_check';
  /** The owner block shows the channel's Join button. */
  join?: boolean;
  /** Songs of the description's music section, each with its LICENSES row. */
  music?: Array<{ song: string; artist: string; licenses: string }>;
  paidPromotion?: boolean;
}

export interface SiteChannel {
  id: string;
  title: string;
  handle: string;
  description?: string;
  links?: Array<{ title: string; url: string }>;
  artistBadge?: boolean;
  videos: SiteVideo[];
}

const json = (value: unknown) => JSON.stringify(value);
const text = (content: string) => ({ content });
const runs = (value: string) => ({ runs: [{ text: value }] });
const post = (endpoint: string, key: Record<string, string>, body: string): FixtureExchange => ({ method: 'POST', path: `/youtubei/v1/${endpoint}`, key, body });
const aboutToken = (channel: SiteChannel) => `about-${channel.id}`;

function channelHome(channel: SiteChannel): string {
  const badge = channel.artistBadge ? 'AUDIO_BADGE' : 'CHECK_CIRCLE_FILLED';
  const tab = (title: string, path: string, params: string) => ({
    tabRenderer: { title, endpoint: { commandMetadata: { webCommandMetadata: { url: `/${channel.handle}/${path}` } }, browseEndpoint: { browseId: channel.id, params } } },
  });
  return json({
    responseContext: { visitorData: 'fixture' },
    header: {
      pageHeaderRenderer: {
        pageTitle: channel.title,
        content: {
          pageHeaderViewModel: {
            title: {
              dynamicTextViewModel: {
                text: { content: channel.title, attachmentRuns: [{ startIndex: channel.title.length, length: 0, element: { type: { imageType: { image: { sources: [{ clientResource: { imageName: badge }, width: 14, height: 14 }] } } } } }] },
              },
            },
            image: { decoratedAvatarViewModel: { avatar: { avatarViewModel: { image: { sources: [{ url: `https://yt3.example/${channel.id}=s160`, width: 160, height: 160 }] } } } } },
            metadata: {
              contentMetadataViewModel: {
                metadataRows: [
                  { metadataParts: [{ text: text(channel.handle) }] },
                  { metadataParts: [{ text: text('84.2K subscribers') }, { text: text(`${channel.videos.length} videos`) }] },
                ],
                delimiter: ' • ',
              },
            },
            description: {
              descriptionPreviewViewModel: {
                description: text(channel.description ?? ''),
                rendererContext: {
                  commandContext: {
                    onTap: {
                      innertubeCommand: {
                        showEngagementPanelEndpoint: {
                          engagementPanel: {
                            engagementPanelSectionListRenderer: {
                              content: {
                                sectionListRenderer: {
                                  contents: [{ itemSectionRenderer: { contents: [{ continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token: aboutToken(channel), request: 'CONTINUATION_REQUEST_TYPE_BROWSE' } } } }] } }],
                                },
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    contents: { twoColumnBrowseResultsRenderer: { tabs: [tab('Home', 'featured', 'EghmZWF0dXJlZPIGBAoCMgA%3D'), tab('Videos', 'videos', VIDEOS_TAB)] } },
    metadata: {
      channelMetadataRenderer: {
        title: channel.title,
        description: channel.description ?? '',
        externalId: channel.id,
        vanityChannelUrl: `http://www.youtube.com/${channel.handle}`,
        avatar: { thumbnails: [{ url: `https://yt3.example/${channel.id}=s900`, width: 900, height: 900 }] },
      },
    },
  });
}

/** The about panel; links carry the site's redirect with the real address in `q`, as the site sends them. */
function channelAbout(channel: SiteChannel): string {
  const links = (channel.links ?? []).map((link) => {
    const shown = link.url.replace(/^https?:\/\//, '');
    const redirect = `https://www.youtube.com/redirect?event=channel_description&redir_token=fixture&q=${encodeURIComponent(link.url)}`;
    return {
      channelExternalLinkViewModel: {
        title: text(link.title),
        link: { content: shown, commandRuns: [{ startIndex: 0, length: shown.length, onTap: { innertubeCommand: { urlEndpoint: { url: redirect, target: 'TARGET_NEW_WINDOW', nofollow: true } } } }] },
      },
    };
  });
  return json(
    aboutResponse({
      description: channel.description ?? '',
      country: 'United States',
      subscriberCountText: '84,200 subscribers',
      viewCountText: '12,345,678 views',
      videoCountText: `${channel.videos.length} videos`,
      joinedDateText: text('Joined Jan 5, 2019'),
      canonicalChannelUrl: `http://www.youtube.com/${channel.handle}`,
      channelId: channel.id,
      links,
    }),
  );
}

function videosTab(channel: SiteChannel): string {
  const items = channel.videos.map((video) => ({
    richItemRenderer: {
      content: {
        lockupViewModel: {
          contentId: video.id,
          contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
          contentImage: {
            thumbnailViewModel: {
              image: { sources: [{ url: `https://i.ytimg.example/vi/${video.id}/hq.jpg`, width: 336, height: 188 }] },
              overlays: [{ thumbnailBottomOverlayViewModel: { badges: [{ thumbnailBadgeViewModel: { text: '12:34' } }] } }],
            },
          },
          metadata: {
            lockupMetadataViewModel: {
              title: text(video.title),
              metadata: {
                contentMetadataViewModel: {
                  metadataRows: [{ metadataParts: [{ text: text(`${(video.views ?? 20_000).toLocaleString('en-US')} views`) }, { text: text(video.ago) }] }],
                  delimiter: ' • ',
                },
              },
            },
          },
        },
      },
    },
  }));
  return json({
    responseContext: { visitorData: 'fixture' },
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              title: 'Videos',
              selected: true,
              endpoint: { commandMetadata: { webCommandMetadata: { url: `/${channel.handle}/videos` } }, browseEndpoint: { browseId: channel.id, params: VIDEOS_TAB } },
              content: { richGridRenderer: { contents: items } },
            },
          },
        ],
      },
    },
  });
}

const PLAYABILITY = {
  age_gate: { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm your age', errorScreen: { playerErrorMessageRenderer: { subreason: runs('This video may be inappropriate for some users.') } } },
  members_only: {
    status: 'UNPLAYABLE',
    reason: 'Join this channel to get access to members-only content like this video, and other exclusive perks.',
  },
  bot_check: { status: 'LOGIN_REQUIRED', reason: "Sign in to confirm you're not a bot" },
};

function player(channel: SiteChannel, video: SiteVideo): string {
  const ads = video.ads ?? 'none';
  const csi = ads === 'silent' ? [] : [{ service: 'CSI', params: [{ key: 'yt_ad', value: ads === 'none' ? '0' : ads === 'yt_ad' ? '1' : '0' }, { key: 'c', value: 'WEB' }, { key: 'cver', value: '2.20261120.01.00' }, { key: 'yt_li', value: '0' }, { key: 'GetPlayer_rid', value: '0x0fixture' }] }];
  const description = video.description ?? '';
  const answer: Record<string, unknown> = {
    responseContext: { serviceTrackingParams: [{ service: 'GFEEDBACK', params: [{ key: 'logged_in', value: '0' }] }, ...csi], visitorData: 'fixture' },
    playabilityStatus: video.playability ? PLAYABILITY[video.playability] : { status: 'OK', playableInEmbed: true },
    videoDetails: {
      videoId: video.id,
      title: video.title,
      lengthSeconds: '754',
      channelId: channel.id,
      shortDescription: description,
      viewCount: String(video.views ?? 20_000),
      author: channel.title,
      isLiveContent: false,
    },
    microformat: {
      playerMicroformatRenderer: {
        title: { simpleText: video.title },
        description: { simpleText: description },
        lengthSeconds: '754',
        externalChannelId: channel.id,
        ownerChannelName: channel.title,
        viewCount: String(video.views ?? 20_000),
        category: 'Entertainment',
        publishDate: '2026-11-20T09:00:00-08:00',
        uploadDate: '2026-11-20T09:00:00-08:00',
        isShortsEligible: false,
        embed: { iframeUrl: `https://www.youtube.com/embed/${video.id}`, width: 1280, height: 720 },
      },
    },
  };
  if (ads === 'placements') {
    answer.adPlacements = [
      { adPlacementRenderer: { config: { adPlacementConfig: { kind: 'AD_PLACEMENT_KIND_START', adTimeOffset: { offsetStartMilliseconds: '0', offsetEndMilliseconds: '-1' } } }, renderer: { clientForecastingAdRenderer: {} } } },
      { adPlacementRenderer: { config: { adPlacementConfig: { kind: 'AD_PLACEMENT_KIND_MILLISECONDS', adTimeOffset: { offsetStartMilliseconds: '300000', offsetEndMilliseconds: '-1' } } }, renderer: { adBreakServiceRenderer: { prefetchMilliseconds: '10000', getAdBreakUrl: 'https://www.youtube.com/get_midroll_info' } } } },
    ];
  }
  if (ads === 'player_ads') {
    answer.playerAds = [{ playerLegacyDesktopWatchAdsRenderer: { playerAdParams: { showContentThumbnail: true, enabledEngageTypes: '3,6,4,5,17,1' }, showCompanion: true, showInstream: true, useGut: true } }];
  }
  if (video.paidPromotion) {
    answer.paidContentOverlay = { paidContentOverlayRenderer: { text: runs('Includes paid promotion'), durationMs: '10000' } };
  }
  return json(answer);
}

function watchNext(channel: SiteChannel, video: SiteVideo): string {
  const owner: Record<string, unknown> = {
    title: { runs: [{ text: channel.title, navigationEndpoint: { browseEndpoint: { browseId: channel.id, canonicalBaseUrl: `/${channel.handle}` } } }] },
    navigationEndpoint: { browseEndpoint: { browseId: channel.id, canonicalBaseUrl: `/${channel.handle}` } },
    subscriberCountText: { simpleText: '84.2K subscribers' },
  };
  if (video.join) {
    owner.membershipButton = {
      timedAnimationButtonRenderer: {
        buttonRenderer: {
          buttonRenderer: {
            style: 'STYLE_SUGGESTIVE',
            text: runs('Join'),
            navigationEndpoint: { modalEndpoint: { modal: { modalWithTitleAndButtonRenderer: { title: runs('Want to join this channel?'), content: runs('Sign in to become a member.') } } } },
            targetId: 'sponsorships-button',
          },
        },
      },
    };
    owner.hideMembershipButtonIfUnsubscribed = true;
  }
  const items: unknown[] = [{ videoDescriptionHeaderRenderer: { title: runs(video.title), channel: { simpleText: channel.title } } }, { expandableVideoDescriptionBodyRenderer: { attributedDescriptionBodyText: text(video.description ?? '') } }];
  if (video.music) {
    items.push({
      videoDescriptionMusicSectionRenderer: {
        sectionTitle: { simpleText: 'Music' },
        carouselLockups: video.music.map((song) => ({
          carouselLockupRenderer: {
            infoRows: [
              { infoRowRenderer: { title: { simpleText: 'SONG' }, defaultMetadata: { simpleText: song.song } } },
              { infoRowRenderer: { title: { simpleText: 'ARTIST' }, defaultMetadata: { simpleText: song.artist } } },
              { infoRowRenderer: { title: { simpleText: 'LICENSES' }, expandedMetadata: { simpleText: song.licenses }, defaultMetadata: { simpleText: song.licenses.slice(0, 30) } } },
            ],
          },
        })),
      },
    });
  }
  return json({
    responseContext: { visitorData: 'fixture' },
    contents: {
      twoColumnWatchNextResults: {
        results: {
          results: {
            contents: [
              { videoPrimaryInfoRenderer: { title: runs(video.title), dateText: { simpleText: 'Nov 20, 2026' } } },
              { videoSecondaryInfoRenderer: { owner: { videoOwnerRenderer: owner } } },
            ],
          },
        },
      },
    },
    engagementPanels: [
      { engagementPanelSectionListRenderer: { content: { adsEngagementPanelContentRenderer: { hack: true } }, targetId: 'engagement-panel-ads', visibility: 'ENGAGEMENT_PANEL_VISIBILITY_HIDDEN' } },
      { engagementPanelSectionListRenderer: { content: { structuredDescriptionContentRenderer: { items } }, targetId: 'engagement-panel-structured-description' } },
    ],
  });
}

/** Everything the site answers about these channels: pages, tabs, players and watch-next answers. */
export function siteExchanges(channels: SiteChannel[]): FixtureExchange[] {
  return channels.flatMap((channel) => [
    post('browse', { browseId: channel.id }, channelHome(channel)),
    post('browse', { continuation: aboutToken(channel) }, channelAbout(channel)),
    post('browse', { browseId: channel.id, params: VIDEOS_TAB }, videosTab(channel)),
    ...channel.videos.flatMap((video) => [post('player', { videoId: video.id }, player(channel, video)), post('next', { videoId: video.id }, watchNext(channel, video))]),
  ]);
}

/** A channel the site shows as terminated. */
export function terminatedChannel(channelId: string): FixtureExchange {
  return post(
    'browse',
    { browseId: channelId },
    json({ responseContext: { visitorData: 'fixture' }, alerts: [{ alertRenderer: { type: 'ERROR', text: { simpleText: "This account has been terminated for a violation of YouTube's Terms of Service." } } }] }),
  );
}

/** A channel id the site knows nothing of (the real site answers 404). */
export function missingChannel(channelId: string): FixtureExchange {
  return { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: channelId }, status: 404, body: json({ error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } }) };
}
