import { expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { RemoteService } from '../../src/remote/remote-service.js';
import { setJobWork } from '../support/channel-fixtures.js';
import { createHarness, describeEachEngine, type EngineHarness } from '../support/engines.js';

const WORLD = { seed: 3, channels: 600, terminated: 0 };
const world = (harness: EngineHarness) => harness.engine.platform();

describeEachEngine(
  'the moving world through the API',
  (get) => {
    it('moves folder deltas and channel figures with the world', async () => {
      const harness = get();
      const user = harness.as('starter');
      const w = await world(harness);
      const channel = w.sampleChannels(5)[2]!;
      const folder = (await user.call('folders.create', { name: 'Moving' })).folder;
      await user.call('saved.add', { channel_ids: [channel.channel_id], folder_id: folder.id });
      const before = (await user.call('folders.channels', { id: folder.id })).channels[0]!;
      await harness.engine.advanceWorld('1d');
      const after = (await user.call('folders.channels', { id: folder.id })).channels[0]!;
      const moved = w.channelById(channel.channel_id)!;
      const deltas = w.deltas(moved)!;
      expect(after).toMatchObject({ subscribers: moved.subscribers, total_views: moved.total_views, views_24h: deltas.views_24h, views_48h: deltas.views_48h });
      expect(after.total_views).toBeGreaterThanOrEqual(before.total_views);
      // Yesterday's last 24 hours are today's 24 to 48 hours ago.
      expect(after.views_48h - after.views_24h).toBe(before.views_24h);
    });

    it('lets channel jobs read the moved world: new uploads and the channels that appeared', async () => {
      const harness = get();
      await setJobWork(harness.engine, 0);
      const user = harness.as('ultimate');
      const w = await world(harness);
      const referenceEnd = Date.parse(`${w.referenceDate}T00:00:00Z`) + 86_400_000;
      await harness.engine.advanceWorld('10d');
      const busy = w.sampleChannels(200).find((channel) =>
        channel.content_type === 'shorts' && w.channelVideos(channel, { kind: 'short' }).some((video) => Date.parse(video.published_at) > referenceEnd))!;
      const job = await user.call('channels.process', { channel: busy.handle, type: 'shorts' });
      const done = await user.call('channels.processStatus', { job_id: job.job_id, wait_seconds: 30 });
      expect(done.status).toBe('completed');
      const shorts = (done.result as { shorts: Array<{ video_id: string; published_at: string }> }).shorts;
      expect(shorts.some((video) => Date.parse(video.published_at) > referenceEnd)).toBe(true);
      expect((done.result as { statistics: { video_count: number } }).statistics.video_count).toBe(w.channelById(busy.channel_id)!.video_count);

      const newcomer = w.channelByIndex(600)!;
      expect(newcomer.created_at > w.referenceDate).toBe(true);
      expect((await user.call('channels.resolve', { input: newcomer.handle })).channel_id).toBe(newcomer.channel_id);
    });
  },
  { world: WORLD, postgres: true },
);

it('serve runs an alert cycle on its schedule (--alerts-every), starting at once', async () => {
  const { harness, close } = await createHarness('embedded', { world: WORLD });
  const user = harness.as('starter');
  await user.call('alerts.create', { name: 'Scheduled', content_type: 'shorts' });
  const server = await startServer({ engine: harness.engine, port: 0, alertsEveryMinutes: 60 });
  const key = (await harness.engine.identity.createUserWithKey('starter', [])).key;
  const remote = new RemoteService({ baseUrl: server.url, apiKey: key, maxRetries: 0 });
  try {
    let evaluated: string | null = null;
    for (let attempt = 0; attempt < 100 && !evaluated; attempt++) {
      evaluated = (await user.call('alerts.status', {})).alerts[0]!.last_evaluated_at;
      if (!evaluated) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(evaluated).not.toBeNull();
    expect((await remote.call('alerts.status', {})).alerts).toEqual([]);
  } finally {
    await remote.close();
    await server.close();
    await close();
  }
});
