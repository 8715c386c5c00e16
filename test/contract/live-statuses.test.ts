/**
 * What the published statuses (src/core/route-statuses.ts) say of a live data dir, on both
 * engines: a route that reads the video site answers 503 `platform_unreachable` when it cannot be
 * reached, and a feature the live platform does not offer yet answers 501
 * `not_implemented_on_live` — each documented where it occurs. Downloads, video analysis and the
 * channel checks read the site like the rest.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { errorAnswers } from '../../src/core/route-statuses.js';
import type { RouteName } from '../../src/core/routes.js';
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
    get().engine.settings.set('platform', 'live');
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

  it('answers 501 not_implemented_on_live for what it does not offer yet, as documented', async () => {
    const calls: Array<[RouteName, () => Promise<unknown>]> = [
      ['folders.channels', () => user.call('folders.channels', { id: folderId })],
      ['channels.process', () => user.call('channels.process', { channel: CHANNEL, type: 'longform' })],
      ['collabs.top', () => user.call('collabs.top', {})],
      ['collabs.channel', () => user.call('collabs.channel', { channel_id: CHANNEL })],
      ['collabs.feed', () => user.call('collabs.feed', {})],
    ];
    for (const [name, call] of calls) {
      expect(await failure(call()), name).toMatchObject({ status: 501, code: 'not_implemented_on_live' });
      expect(documented(name, 501, 'not_implemented_on_live'), name).toBe(true);
    }
  });
});
