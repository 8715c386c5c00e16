/**
 * The live platform's reads against the project's own fixtures (test/fixtures/platform), served on
 * 127.0.0.1 through the origin override. Anything unrecorded is a 404, and each test checks that
 * nothing unrecorded was asked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../../src/core/errors.js';
import { exitCodeForError } from '../../../../../src/core/exit-codes.js';
import type { LivePlatform } from '../../../../../src/engine/platform/live/live-platform.js';
import { DEFAULT_NETWORK } from '../../../../../src/engine/platform/live/network-options.js';
import { openLivePlatform } from '../../../../../src/engine/platform/live/open.js';
import { closedOrigin, type FixtureExchange, type FixtureServer, startFixtureServer } from '../../../../support/platform-fixture-server.js';
import { caught } from '../../../../support/service-errors.js';

const JANE = 'UCtubekitFixtureChannel1';
const SAM = 'UCtubekitFixtureChannel2';
const TERMINATED = 'UCtubekitTerminatedChan1';
const VIDEOS = 'EgZ2aWRlb3PyBgQKAjoA';
const SHORTS = 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D';
const STREAMS = 'EgdzdHJlYW1z8gYECgJ6AA%3D%3D';
/** The fixtures' "now": listings say "2 days ago" relative to it. */
const NOW = Date.parse('2026-11-24T12:00:00Z');

const post = (endpoint: string, key: Record<string, string>, file: string, extra: Partial<FixtureExchange> = {}): FixtureExchange => ({
  method: 'POST',
  path: `/youtubei/v1/${endpoint}`,
  key,
  file,
  ...extra,
});

const SITE: FixtureExchange[] = [
  post('navigation/resolve_url', { url: 'https://www.youtube.com/@cozycookingjane' }, 'resolve-handle.json'),
  post('navigation/resolve_url', { url: 'https://www.youtube.com/c/CozyCookingJane' }, 'resolve-handle.json'),
  post('navigation/resolve_url', { url: 'https://www.youtube.com/user/janecooks' }, 'resolve-handle.json'),
  post('browse', { browseId: JANE }, 'channel-home.json'),
  post('browse', { continuation: 'fixture-about-token' }, 'channel-about.json'),
  post('browse', { browseId: JANE, params: VIDEOS }, 'channel-videos.json'),
  post('browse', { continuation: 'fixture-videos-page-2' }, 'channel-videos-2.json'),
  post('browse', { browseId: JANE, params: SHORTS }, 'channel-shorts.json'),
  post('browse', { browseId: JANE, params: STREAMS }, 'channel-streams.json'),
  post('browse', { browseId: TERMINATED }, 'channel-terminated.json'),
  post('player', { videoId: 'fixVideo001' }, 'player-captions.json'),
  post('next', { videoId: 'fixVideo001' }, 'next-solo.json'),
  post('player', { videoId: 'fixCollab01' }, 'player-collab.json'),
  post('next', { videoId: 'fixCollab01' }, 'next-collab.json'),
  post('player', { videoId: 'fixMember01' }, 'player-members.json'),
  post('next', { videoId: 'fixMember01' }, 'next-solo.json'),
  post('player', { videoId: 'fixUpcom001' }, 'player-upcoming.json'),
  post('next', { videoId: 'fixUpcom001' }, 'next-solo.json'),
  post('player', { videoId: 'fixGone0001' }, 'player-unknown.json'),
  // The site's own words that something does not exist: the resolver's NOT_FOUND, a channel page's alert.
  post('navigation/resolve_url', { url: 'https://www.youtube.com/@nobodyhere' }, 'resolve-not-found.json', { status: 404 }),
  post('browse', { browseId: SAM }, 'channel-missing.json'),
  { method: 'GET', path: '/api/timedtext', key: { v: 'fixVideo001', lang: 'en', fmt: 'json3' }, file: 'timedtext-human.json3' },
];

let server: FixtureServer | undefined;
let dataDir: string;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function live(exchanges: FixtureExchange[] = SITE, origin?: string): Promise<LivePlatform> {
  if (!origin) server = await startFixtureServer(exchanges);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-live-'));
  return openLivePlatform({
    dataDir,
    network: { ...DEFAULT_NETWORK, origin: origin ?? server!.origin, requestsPerSecond: 1000, backoffBaseMs: 1, backoffCapMs: 20, retries: 2 },
    clock: () => NOW,
  });
}

describe('the live platform, on fixtures', () => {
  it('resolves handles and /@, /c/, /user/, /channel/ and video URLs to the channel', async () => {
    const platform = await live();
    expect(await platform.resolveChannelId('cozycookingjane')).toBeNull(); // a bare word is no handle
    for (const reference of ['@cozycookingjane', 'https://www.youtube.com/@cozycookingjane/videos', 'youtube.com/c/CozyCookingJane', 'https://www.youtube.com/user/janecooks']) {
      expect(await platform.resolveChannelId(reference), reference).toBe(JANE);
    }
    expect(await platform.resolveChannelId(`https://www.youtube.com/channel/${JANE}`)).toBe(JANE);
    expect(await platform.resolveChannelId('https://youtu.be/fixVideo001')).toBe(JANE);
    expect(await platform.resolveChannelId('https://www.youtube.com/watch?v=fixCollab01')).toBe(JANE);
    expect(server!.unmatched).toEqual([]);
    // The resolver's NOT_FOUND for an unknown handle: null, not an error. A foreign URL is no channel.
    expect(await platform.resolveChannelId('@nobodyhere')).toBeNull();
    expect(await platform.resolveChannelId('https://example.com/@jane')).toBeNull();
    expect(server!.unmatched).toEqual([]);
  });

  it('never takes a bare 404, a 500 or a page it cannot read for "does not exist"', async () => {
    const plain404 = (endpoint: string, key: Record<string, string>) => post(endpoint, key, '', { file: undefined, status: 404, body: 'Not Found' });
    const platform = await live([
      plain404('navigation/resolve_url', { url: 'https://www.youtube.com/@cozycookingjane' }),
      plain404('browse', { browseId: JANE }),
      post('player', { videoId: 'fixVideo001' }, '', { file: undefined, status: 500, body: '{}' }),
      post('player', { videoId: 'fixCollab01' }, '', { file: undefined, body: 'null' }),
      post('player', { videoId: 'fixMember01' }, 'player-captions.json'),
      { method: 'GET', path: '/api/timedtext', key: { v: 'fixVideo001', lang: 'en', fmt: 'json3' }, status: 404, body: 'Not Found' },
    ]);
    const failures = [
      await caught(platform.resolveChannelId('@cozycookingjane')),
      await caught(platform.channelPresence(JANE)),
      await caught(platform.channelVideos(JANE)),
      await caught(platform.videoById('fixVideo001')),
    ];
    for (const error of failures) expect(error).toMatchObject({ status: 502, code: 'upstream_error', message: expect.stringMatching(/with HTTP (404|500)\.$/) });
    expect(await caught(platform.videoById('fixCollab01'))).toMatchObject({ code: 'platform_page_not_understood' });
    // A caption track the player lists but the site will not serve: not "no captions".
    expect(await caught(platform.transcript('fixMember01'))).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('/api/timedtext') });
  });

  it('reads a channel: header, about view, counts exact or estimated (and which), badges, links', async () => {
    const platform = await live();
    const channel = await platform.resolveHandle('@cozycookingjane');
    expect(channel).toMatchObject({
      channel_id: JANE,
      handle: '@cozycookingjane',
      title: 'Cozy Cooking Jane',
      description: 'Weeknight dinners, slowly.\nNew recipes every Tuesday.',
      country: 'CA',
      subscribers: 1_230_000,
      total_views: 98_765_432,
      video_count: 412,
      created_at: '2016-03-14',
      thumbnail_url: 'https://yt3.example/jane=s900',
      counts_exact: { subscribers: false, total_views: true, video_count: true },
      badges: ['verified'],
      links: [
        { title: 'Recipes', url: 'https://cozycooking.example/recipes' },
        { title: 'Shop', url: 'https://shop.cozycooking.example' },
      ],
    });
    expect(server!.unmatched).toEqual([]);
  });

  it('recognises a terminated channel and a missing one, as findings not errors', async () => {
    const platform = await live();
    expect(await platform.channelPresence(TERMINATED)).toEqual({
      state: 'terminated',
      channel_id: TERMINATED,
      reason: "This account has been terminated for a violation of YouTube's Terms of Service.",
    });
    expect(await platform.channelById(TERMINATED)).toBeNull();
    expect(await platform.channelPresence(SAM)).toEqual({ state: 'missing', channel_id: SAM });
    expect(await platform.channelVideos(TERMINATED)).toEqual([]);
  });

  it('lists the videos tab newest first, following the continuation only as far as needed', async () => {
    const platform = await live();
    const first = await platform.channelVideos(JANE, { kind: 'long', limit: 2 });
    expect(first.map((video) => video.video_id)).toEqual(['fixVideo001', 'fixVideo002']);
    expect(server!.seen.filter((request) => request.key.continuation === 'fixture-videos-page-2')).toEqual([]);
    const all = await platform.channelVideos(JANE, { kind: 'long', limit: 10 });
    expect(all.map((video) => video.video_id)).toEqual(['fixVideo001', 'fixVideo002', 'fixVideo003', 'fixCollab01']);
    expect(all[0]).toMatchObject({
      kind: 'long',
      title: 'Ten-minute dumplings',
      views: 48_210,
      duration_seconds: 754,
      published_at: '2026-11-22T12:00:00Z',
      published_exact: false,
    });
    expect(all[1]).toMatchObject({ views: 1_200_000, duration_seconds: 3723 });
    expect(server!.unmatched).toEqual([]);
  });

  it('lists upcoming first, then live and past streams, without a kind; shorts from the shorts tab', async () => {
    const platform = await live();
    const recent = await platform.channelVideos(JANE, { limit: 4 });
    expect(recent.map((video) => [video.video_id, video.kind, video.availability])).toEqual([
      ['fixUpcom001', 'upcoming', 'upcoming'],
      ['fixVideo001', 'long', 'ok'],
      ['fixStream01', 'long', 'ok'],
      ['fixVideo002', 'long', 'ok'],
    ]);
    expect(recent[0]).toMatchObject({ published_at: '2026-12-06T18:00:00Z', duration_seconds: 0 });
    const upcoming = await platform.channelVideos(JANE, { kind: 'upcoming' });
    expect(upcoming.map((video) => video.video_id)).toEqual(['fixUpcom001']);
    const shorts = await platform.channelVideos(JANE, { kind: 'short' });
    expect(shorts.map((video) => [video.video_id, video.title, video.views, video.kind])).toEqual([
      ['fixShort001', 'Knife trick', 895_000, 'short'],
      ['fixShort002', 'One-pan eggs', 12_000, 'short'],
    ]);
    // The Shorts listing gives no length, date, likes or comments: unknown, not 0 or "".
    expect(shorts[0]).toMatchObject({ duration_seconds: null, published_at: null, published_exact: false, likes: null, comments: null });
    expect(server!.unmatched).toEqual([]);
  });

  it('reads a video: microformat date, keywords, category, likes, its channel', async () => {
    const platform = await live();
    expect(await platform.videoById('fixVideo001')).toEqual({
      video_id: 'fixVideo001',
      channel_id: JANE,
      kind: 'long',
      title: 'Ten-minute dumplings',
      views: 48_210,
      likes: 3120,
      comments: 2700,
      duration_seconds: 754,
      published_at: '2026-11-21T17:30:00Z',
      thumbnail_url: 'https://i.ytimg.example/vi/fixVideo001/maxres.jpg',
      availability: 'ok',
      availability_reason: null,
      keywords: ['dumplings', 'weeknight'],
      category: 'Howto & Style',
      channel_ids: [JANE],
      published_exact: true,
      spoken_language: 'en',
    });
  });

  it('lists every channel of a collab, the uploader first; counts neither answer gives stay unknown', async () => {
    const platform = await live();
    const video = await platform.videoById('fixCollab01');
    // Neither the player nor the watch page shows likes or a comment count: null, never 0.
    expect(video).toMatchObject({ channel_ids: [JANE, SAM], published_at: '2026-09-20T12:00:00Z', published_exact: true, likes: null, comments: null });
  });

  it('answers members-only, upcoming and unknown videos as results', async () => {
    const platform = await live();
    expect(await platform.videoById('fixMember01')).toMatchObject({ availability: 'members_only', availability_reason: expect.stringContaining('members-only') });
    expect(await platform.videoById('fixUpcom001')).toMatchObject({ kind: 'upcoming', availability: 'upcoming', published_at: '2026-12-06T18:00:00Z', duration_seconds: 0 });
    expect(await platform.videoById('fixGone0001')).toBeNull();
    expect(server!.unmatched).toEqual([]);
  });

  it('reads the human English captions first, as json3', async () => {
    const platform = await live();
    expect(await platform.transcript('fixVideo001')).toEqual({
      video_id: 'fixVideo001',
      language: 'en',
      source: 'human',
      cues: [
        { start: 0, end: 2.4, text: 'Tonight: dumplings in ten minutes.' },
        { start: 4.2, end: 7.3, text: 'Start with the filling & a hot pan.' },
      ],
    });
    expect(await platform.transcript('fixCollab01')).toBeNull(); // no caption tracks
    expect(server!.unmatched).toEqual([]);
  });

  it('backs off a 429 and reads on; refuses clearly after the retries; a bot check says so', async () => {
    const platform = await live([post('browse', { browseId: TERMINATED }, 'channel-terminated.json', { status: 429, body: 'Too Many Requests', file: undefined, times: 1 }), ...SITE]);
    expect((await platform.channelPresence(TERMINATED)).state).toBe('terminated');
    await server!.close();
    const botCheck = JSON.stringify({ playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' } });
    const refusing = await live([post('browse', { browseId: JANE }, '', { status: 429, file: undefined, body: '' }), post('player', { videoId: 'fixVideo001' }, '', { file: undefined, body: botCheck })]);
    const limited = await caught(refusing.channelById(JANE));
    expect(limited).toMatchObject({ status: 429, code: 'platform_refused' });
    expect(limited.hint).toMatch(/proxy/);
    const bot = await caught(refusing.videoById('fixVideo001'));
    expect(bot.message).toContain('not a bot');
  });

  it('says the platform could not be reached (exit 9)', async () => {
    const platform = await live([], await closedOrigin());
    const error = await caught(platform.resolveChannelId('@cozycookingjane'));
    expect(error.message).toBe('the video platform could not be reached (www.youtube.com: connection refused)');
    expect(exitCodeForError(error)).toBe(9);
  });

  it('names the request and what was missing when a page is not understood, and saves it', async () => {
    const platform = await live([post('browse', { browseId: JANE }, '', { file: undefined, body: '{"responseContext":{},"contents":{}}' })]);
    const error = await caught(platform.channelById(JANE));
    expect(error.code).toBe('platform_page_not_understood');
    expect(error.message).toContain(`POST /youtubei/v1/browse {browseId: ${JANE}}`);
    expect(error.message).toContain('metadata.channelMetadataRenderer');
    const saved = /saved at (\S+?);/.exec(error.message)![1]!;
    expect(saved.startsWith(path.join(dataDir, 'platform-raw'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(saved, 'utf8'))).toMatchObject({ request: { browseId: JANE }, body: '{"responseContext":{},"contents":{}}' });
  });

  it('answers 501 not_implemented_on_live for what only the sample world knows (the checks read pages instead)', async () => {
    const platform = await live([]);
    for (const read of [() => platform.networks.ownerOf(JANE), () => platform.networks.network('some-oid'), () => platform.externalMonetization()]) {
      expect(read).toThrow(ServiceError);
      try {
        read();
      } catch (error) {
        expect(error).toMatchObject({ status: 501, code: 'not_implemented_on_live' });
      }
    }
    expect(platform.simulation).toBeUndefined();
    expect(platform.categories()).toContain('Howto & Style');
    expect(platform.languages()).toContainEqual({ name: 'English', code: 'en' });
  });
});
