/**
 * What the published statuses (src/core/route-statuses.ts) say of a live data dir, on both
 * engines: a route that reads the video site answers 503 `platform_unreachable` when it cannot be
 * reached (documented where it occurs); what needs what the engine learned (folder channels,
 * collabs, terminated channels, alerts) answers from the live index. No route answers 501
 * `not_implemented_on_live` any longer.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { errorAnswers } from '../../src/core/route-statuses.js';
import { routes, type RouteName } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine, failure } from '../support/engines.js';
import { closedOrigin } from '../support/platform-fixture-server.js';

const CHANNEL = 'UCtubekitFixtureChannel1';
const VIDEO = 'https://www.youtube.com/watch?v=fixVideo001';

beforeAll(async () => {
  vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', await closedOrigin());
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const documented = (name: RouteName, status: number, code: string) =>
  errorAnswers(name).some((answer) => answer.status === status && answer.description.includes(`\`${code}\``));

describeEachEngine('a live data dir\'s documented answers', (get) => {
  let user: Service;
  let folderId: number;
  beforeAll(async () => {
    // The platform is the data dir's own setting (on a fleet, `settings` are the shared ones).
    await get().engine.localSettings.set('platform', 'live');
    user = get().as('ultimate');
    folderId = (await user.call('folders.create', { name: 'Live' })).folder.id;
  });

  it('answers 503 platform_unreachable where it reads an unreachable site, as documented', async () => {
    const calls: Array<[RouteName, () => Promise<unknown>]> = [
      ['channels.resolve', () => user.call('channels.resolve', { input: CHANNEL })],
      ['video.info', () => user.call('video.info', { url: VIDEO })],
      ['saved.add', () => user.call('saved.add', { channel_ids: [CHANNEL], folder_id: folderId })],
      ['download', () => user.call('download', { video_url: VIDEO, format: 'subtitles' })],
      ['analysis.submit', () => user.call('analysis.submit', { video_url: VIDEO, prompt: 'Describe it.' })],
      ['cms.check', () => user.call('cms.check', { channel_id: CHANNEL })],
      ['monetization.ads', () => user.call('monetization.ads', { channel_id: CHANNEL })],
      ['monetization.external', () => user.call('monetization.external', { channel_id: CHANNEL })],
    ];
    for (const [name, call] of calls) {
      expect(await failure(call()), name).toMatchObject({ status: 503, code: 'platform_unreachable' });
      expect(documented(name, 503, 'platform_unreachable'), name).toBe(true);
      expect(documented(name, 429, 'platform_refused'), name).toBe(true);
      expect(documented(name, 502, 'platform_page_not_understood'), name).toBe(true);
    }
  });

  it('answers from the live index where a feature needs what the engine learned, never 501', async () => {
    const calls: Array<[RouteName, () => Promise<unknown>]> = [
      ['folders.channels', () => user.call('folders.channels', { id: folderId })],
      ['collabs.top', () => user.call('collabs.top', {})],
      ['collabs.feed', () => user.call('collabs.feed', {})],
      ['collabs.channel', () => user.call('collabs.channel', { channel_id: CHANNEL })],
      ['terminated.search', () => user.call('terminated.search', { q: 'lofi' })],
      ['alerts.triggered', () => user.call('alerts.triggered', {})],
    ];
    for (const [name, call] of calls) await expect(call(), name).resolves.toBeDefined();
    expect(await user.call('folders.channels', { id: folderId })).toMatchObject({ channels: [] });
  });

  it('documents 501 not_implemented_on_live on no route: every feature works on a live data dir', () => {
    const offenders = (Object.keys(routes) as RouteName[]).filter((name) => errorAnswers(name).some((answer) => answer.status === 501));
    expect(offenders).toEqual([]);
  });
}, { postgres: true });
