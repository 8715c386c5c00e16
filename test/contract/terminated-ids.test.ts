/**
 * A terminated channel is not a dead end (issue 23): `GET /api/terminated-channels/:channel_id`
 * answers its record, and every other route naming its id says it was terminated (404
 * `channel_terminated`, with the date), instead of "no channel exists" or a usage error.
 */
import { beforeAll, expect, it } from 'vitest';
import type { RouteOutput } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine, failure } from '../support/engines.js';

type Channel = RouteOutput<'terminated.search'>['channels'][number];

describeEachEngine(
  'terminated channel ids',
  (get) => {
    let user: Service;
    let gone: Channel;
    let live: string;
    beforeAll(async () => {
      user = get().as('ultimate');
      gone = (await user.call('terminated.search', { q: 'cooking', per_page: 1 })).channels[0]!;
      live = (await get().engine.platform()).sampleChannels(1)[0]!.channel_id;
    });

    it('answers the stored record of a terminated channel, as its search result shows it', async () => {
      const body = await user.call('terminated.show', { channel_id: gone.channel_id });
      expect(body).toEqual({ success: true, channel: { ...gone, similarity_score: null } });
    });

    it('answers 404 for an id no terminated channel has (a live channel\'s too), and 400 for a malformed one', async () => {
      for (const channelId of [live, 'UCnjgVTsmU7Ql4Vzmi0HEN8Q']) {
        const error = await failure(user.call('terminated.show', { channel_id: channelId }));
        expect(error.status).toBe(404);
        expect(error.message).toBe(`No terminated channel has the id ${channelId}.`);
      }
      expect((await failure(user.call('terminated.show', { channel_id: 'UCshort' }))).status).toBe(400);
    });

    it('says the channel was terminated wherever its id is used, and changes nothing', async () => {
      const id = gone.channel_id;
      const { folder } = await user.call('folders.create', { name: 'Gone' });
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['channels.resolve', () => user.call('channels.resolve', { input: id })],
        ['channels.process', () => user.call('channels.process', { channel: id, type: 'shorts' })],
        ['saved.add', () => user.call('saved.add', { channel_ids: [live, id], folder_id: folder.id })],
        ['cms.check', () => user.call('cms.check', { channel_id: id })],
        ['monetization.ads', () => user.call('monetization.ads', { channel_id: id })],
        ['monetization.external', () => user.call('monetization.external', { channel_id: id })],
        ['collabs.channel', () => user.call('collabs.channel', { channel_id: id })],
      ];
      for (const [name, call] of calls) {
        const error = await failure(call());
        expect(error.status, name).toBe(404);
        expect(error.code, name).toBe('channel_terminated');
        expect(error.message, name).toBe(
          `Channel ${id} ("${gone.channel_title}") was terminated on ${gone.terminated_date} (${gone.terminated_days_ago === 1 ? '1 day' : `${gone.terminated_days_ago} days`} ago): the platform no longer shows it.`,
        );
        expect(error.hint, name).toContain(`tubekit terminated show ${id}`);
      }
      expect((await user.call('folders.channels', { id: folder.id })).count).toBe(0);
    });
  },
  { world: { seed: 5, channels: 100, terminated: 500 }, postgres: true },
);
