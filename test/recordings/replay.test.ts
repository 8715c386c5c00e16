/**
 * The real recordings guard the parsers: the site's recorded answers (TUBEKIT_RECORDINGS, see
 * SOURCES.md there) replayed on 127.0.0.1 through the live platform, each asserted to parse to what
 * it shows. Skipped when TUBEKIT_RECORDINGS is unset (`.ci/run` sets it when
 * ../shared/platform-recordings is beside the checkout); any request no recording answers fails it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacyChannelUrl } from '../../src/core/channel-input.js';
import { adsServed } from '../../src/engine/platform/live/watch-signals.js';
import type { LivePlatform } from '../../src/engine/platform/live/live-platform.js';
import { DEFAULT_NETWORK } from '../../src/engine/platform/live/network-options.js';
import { openLivePlatform } from '../../src/engine/platform/live/open.js';
import { type FixtureExchange, type FixtureServer, startFixtureServer } from '../support/platform-fixture-server.js';
import { embeddedJsonText, readRecording, recordedBody, recordedContinuation, recordingsDir } from '../support/recordings.js';

const CC = 'UCTwECeGqMZee77BjdoYtI2Q';
const GRONKH = 'UCYJ61XIK64sp6ZFFS8sctxw';
const DOOBY = 'UCh8gHdtzO2tXd593_bjErWg';
const VIDEOS = 'EgZ2aWRlb3PyBgQKAjoA';
const SHORTS = 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D';

function exchanges(): FixtureExchange[] {
  const post = (endpoint: string, key: Record<string, string>, body: () => string): FixtureExchange => ({ method: 'POST', path: `/youtubei/v1/${endpoint}`, key, render: body });
  const npe = (file: string) => () => recordedBody(file);
  const watch = readRecording('yta-watch-GJLlxj_dtq8.html');
  const about = readRecording('ytbcli-about-rickastley.json');
  // The about panel is a cross-channel stand-in (Rick Astley's): it answers every header's token.
  const tokens = new Set<string>();
  for (const file of ['npe-browse-creativecommons-videos.json', 'npe-browse-gronkh-videos.json', 'npe-browse-doobydobap-shorts.json']) {
    const header = JSON.stringify((JSON.parse(recordedBody(file)) as { header?: unknown }).header ?? {});
    for (const match of header.matchAll(/"token"\s*:\s*"([^"]+)"/g)) tokens.add(match[1]!);
  }
  return [
    post('navigation/resolve_url', { url: 'https://www.youtube.com/@Gronkh' }, npe('npe-resolve-gronkh.json')),
    post('navigation/resolve_url', { url: 'https://www.youtube.com/user/creativecommons' }, npe('npe-resolve-creativecommons.json')),
    // No Home tab was recorded: a channel's page is answered with its recorded tab, as SOURCES.md says.
    post('browse', { browseId: CC }, npe('npe-browse-creativecommons-videos.json')),
    post('browse', { browseId: CC, params: VIDEOS }, npe('npe-browse-creativecommons-videos.json')),
    post('browse', { continuation: recordedContinuation('npe-browse-creativecommons-videos-cont.json') }, npe('npe-browse-creativecommons-videos-cont.json')),
    post('browse', { browseId: GRONKH }, npe('npe-browse-gronkh-videos.json')),
    post('browse', { browseId: GRONKH, params: VIDEOS }, npe('npe-browse-gronkh-videos.json')),
    post('browse', { browseId: DOOBY }, npe('npe-browse-doobydobap-shorts.json')),
    post('browse', { browseId: DOOBY, params: SHORTS }, npe('npe-browse-doobydobap-shorts.json')),
    post('browse', { continuation: recordedContinuation('npe-browse-doobydobap-shorts-cont.json') }, npe('npe-browse-doobydobap-shorts-cont.json')),
    ...[...tokens].map((token) => post('browse', { continuation: token }, () => about)),
    post('player', { videoId: 'GJLlxj_dtq8' }, () => embeddedJsonText(watch, 'ytInitialPlayerResponse')),
    post('next', { videoId: 'GJLlxj_dtq8' }, () => embeddedJsonText(watch, 'ytInitialData')),
    post('player', { videoId: 'M4gD1WSo5mA' }, npe('npe-player-web-fields-M4gD1WSo5mA.json')),
    post('next', { videoId: 'M4gD1WSo5mA' }, npe('npe-next-web-M4gD1WSo5mA.json')),
    { method: 'GET', path: '/api/timedtext', key: { v: 'GJLlxj_dtq8', lang: 'en', fmt: 'json3' }, body: readRecording('yta-transcript-sample.xml') },
  ];
}

describe.skipIf(!recordingsDir())('the real recordings, through the live platform', () => {
  let server: FixtureServer;
  let platform: LivePlatform;
  let dataDir: string;
  beforeAll(async () => {
    server = await startFixtureServer(exchanges());
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-recordings-'));
    // The recordings' "now": NPE's tabs were recorded on 2026-05-21 ("13 days ago" is before it).
    platform = await openLivePlatform({ dataDir, network: { ...DEFAULT_NETWORK, origin: server.origin, requestsPerSecond: 1000 }, clock: () => Date.parse('2026-05-21T11:22:00Z') });
  });
  afterAll(async () => {
    await server.close(); // fails on any request no recording answers
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resolves a handle, a legacy /user/ URL as the URL it is, and a video URL', async () => {
    expect(await platform.resolveChannelId('@Gronkh')).toBe(GRONKH);
    expect(await platform.resolveChannelId(legacyChannelUrl({ path: 'user', name: 'creativecommons' }))).toBe(CC);
    expect(await platform.resolveChannelId('https://youtu.be/GJLlxj_dtq8')).toBe('UCVYamHliCI9rw1tHR1xbkfw');
  });

  it("reads a channel's header and (Rick Astley's stand-in) about panel", async () => {
    expect(await platform.channelById(CC)).toMatchObject({
      channel_id: CC,
      handle: '@creativecommons',
      title: 'Creative Commons',
      content_type: 'mixed',
      subscribers: 4_520_000,
      total_views: 2_530_935_570,
      video_count: 434,
      counts_exact: { subscribers: false, total_views: true, video_count: true },
      created_at: '2015-02-01',
      country: 'GB',
      links: expect.arrayContaining([{ title: "New single 'Raindrops'", url: 'https://rickastley.lnk.to/Raindrops' }]),
    });
  });

  it('lists a videos tab newest first, following its continuation', async () => {
    const videos = await platform.channelVideos(CC, { kind: 'long', limit: 45 });
    expect(videos).toHaveLength(45);
    expect(videos[0]).toMatchObject({ video_id: 'BD-LB23rRBE', kind: 'long', views: 28, duration_seconds: 4054, published_exact: false });
    expect(videos.map((video) => video.video_id)).toContain('CIFHx7_z3Vc'); // the continuation's first
    const gronkh = await platform.channelVideos(GRONKH, { kind: 'long', limit: 5 });
    expect(gronkh[0]).toMatchObject({ video_id: 'ZzVJnP9sjlo', duration_seconds: 2184, views: 26_000 });
  });

  it('lists a shorts tab, following its continuation', async () => {
    const shorts = await platform.channelVideos(DOOBY, { kind: 'short', limit: 60 });
    expect(shorts).toHaveLength(60);
    expect(shorts[0]).toMatchObject({ video_id: 'l-X5WbDSH2o', kind: 'short', title: 'Packing lunch for my special roommate', views: 895_000 });
    expect(shorts[48]!.video_id).toBe('R8ydpPnC6vI');
  });

  it('reads a video from the WEB player and watch-next answers', async () => {
    expect(await platform.videoById('GJLlxj_dtq8')).toMatchObject({
      channel_id: 'UCVYamHliCI9rw1tHR1xbkfw',
      title: 'Surface Go Review - It’s Awesome',
      duration_seconds: 316,
      views: 1_856_109,
      likes: 43_864,
      category: 'Science & Technology',
      published_at: '2018-08-02T13:00:08Z',
      published_exact: true,
      spoken_language: 'en',
    });
    expect(await platform.videoById('M4gD1WSo5mA')).toMatchObject({ views: 12_916, category: 'Education', published_at: '2015-01-28T05:14:36Z', published_exact: true });
  });

  it("reads the English captions, and the ads the watch page's player serves", async () => {
    const transcript = await platform.transcript('GJLlxj_dtq8');
    expect(transcript).toMatchObject({ video_id: 'GJLlxj_dtq8', language: 'en', source: 'human' });
    expect(transcript!.cues.length).toBeGreaterThan(0);
    const player = JSON.parse(embeddedJsonText(readRecording('yta-watch-GJLlxj_dtq8.html'), 'ytInitialPlayerResponse')) as object;
    expect(adsServed(player, 'https://www.youtube.com/watch?v=GJLlxj_dtq8').served).toBe(true);
  });
});
