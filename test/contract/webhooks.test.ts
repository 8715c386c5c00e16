import { Webhook } from 'standardwebhooks';
import { afterAll, expect, it } from 'vitest';
import fs from 'node:fs';
import { deliverDue } from '../../src/engine/features/webhooks/delivery.js';
import { openEngine } from '../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { describeEachEngine, failure, tempDataDir, type EngineHarness } from '../support/engines.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const WORLD = { seed: 11, channels: 800, terminated: 0 };

/** Host names the engine resolves in these tests (never the network). */
const NAMES: Record<string, string[]> = {
  'hooks.example.test': ['93.184.216.34'],
  'sneaky.example.test': ['127.0.0.1'],
  'split.example.test': ['93.184.216.34', '10.20.30.40'],
  'metadata.example.test': ['169.254.169.254'],
};
const lookup = async (host: string) => NAMES[host] ?? [];

describeEachEngine(
  'webhooks: endpoints and the addresses they may reach',
  (get) => {
    it('creates an endpoint (201) whose secret is shown once, and lists it without the secret', async () => {
      const user = get().as('ultimate');
      const created = await user.call('webhooks.create', { url: 'https://hooks.example.test/tubekit', events: ['alert.triggered', 'channel.new_upload'] });
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.endpoint).toMatchObject({ url: 'https://hooks.example.test/tubekit', events: ['alert.triggered', 'channel.new_upload'], alert_id: null, enabled: true, disabled_reason: null, pending_deliveries: 0 });
      const listed = await user.call('webhooks.list', {});
      expect(listed.count).toBe(1);
      expect(listed.endpoints[0]).toEqual(created.endpoint);
      expect(JSON.stringify(listed)).not.toContain(created.secret.slice(6));
      const rotated = await user.call('webhooks.rotateSecret', { id: created.endpoint.id });
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(created.secret);
      const updated = await user.call('webhooks.update', { id: created.endpoint.id, events: ['channel.terminated'], enabled: false });
      expect(updated.endpoint).toMatchObject({ events: ['channel.terminated'], enabled: false, disabled_reason: 'disabled by you' });
      expect(await user.call('webhooks.delete', { id: created.endpoint.id })).toEqual({ success: true, id: created.endpoint.id });
      expect((await failure(user.call('webhooks.delete', { id: created.endpoint.id }))).status).toBe(404);
      // Another user's endpoint is not found, not forbidden.
      const mine = await user.call('webhooks.create', { url: 'https://hooks.example.test/b', events: ['alert.triggered'] });
      expect((await failure(get().as('ultimate').call('webhooks.update', { id: mine.endpoint.id, enabled: false }))).status).toBe(404);
    });

    it('refuses each non-public target with 400 naming the rule, saving nothing', async () => {
      const user = get().as('ultimate');
      const cases: Array<[string, RegExp]> = [
        ['http://hooks.example.test/x', /https only/],
        ['ftp://hooks.example.test/x', /https only/],
        ['not a url', /is not a URL/],
        ['https://me:secret@hooks.example.test/x', /user name or password/],
        ['https://127.0.0.1/x', /127\.0\.0\.1, a loopback address/],
        ['https://[::1]/x', /::1, a loopback address/],
        ['https://10.1.2.3/x', /a private network address/],
        ['https://172.16.5.4/x', /a private network address/],
        ['https://192.168.0.10/x', /a private network address/],
        ['https://[fd12:3456::1]/x', /a private network address/],
        ['https://169.254.10.20/x', /a link-local address/],
        ['https://[fe80::1]/x', /a link-local address/],
        ['https://169.254.169.254/latest/meta-data', /a cloud metadata address/],
        ['https://metadata.example.test/x', /metadata\.example\.test resolves to 169\.254\.169\.254, a cloud metadata address/],
        ['https://100.64.1.1/x', /carrier-grade NAT/],
        ['https://0.0.0.0/x', /unspecified/],
        ['https://[::ffff:127.0.0.1]/x', /loopback/],
        ['https://sneaky.example.test/x', /sneaky\.example\.test resolves to 127\.0\.0\.1, a loopback address/],
        ['https://split.example.test/x', /resolves to 10\.20\.30\.40, a private network address/],
        ['https://nowhere.example.test/x', /has no address/],
      ];
      for (const [url, message] of cases) {
        const error = await failure(user.call('webhooks.create', { url, events: ['alert.triggered'] }));
        expect(error.status, url).toBe(400);
        expect(error.message, url).toMatch(message);
      }
      const error = await failure(user.call('webhooks.create', { url: 'https://hooks.example.test/x', events: ['channel.exploded' as never] }));
      expect(error.message).toMatch(/events.*alert\.triggered, channel\.new_upload, channel\.terminated/);
      expect((await user.call('webhooks.list', {})).count).toBe(0);
      // An edit is judged the same way, and changes nothing when refused.
      const { endpoint } = await user.call('webhooks.create', { url: 'https://hooks.example.test/x', events: ['alert.triggered'] });
      expect((await failure(user.call('webhooks.update', { id: endpoint.id, url: 'https://sneaky.example.test/' }))).status).toBe(400);
      expect((await user.call('webhooks.list', {})).endpoints[0]!.url).toBe('https://hooks.example.test/x');
    });

    it('keeps a user within the plan\'s endpoint cap (403), and refuses an alert that is not theirs (404)', async () => {
      const user = get().as('starter');
      for (let n = 0; n < 2; n++) await user.call('webhooks.create', { url: `https://hooks.example.test/${n}`, events: ['alert.triggered'] });
      const error = await failure(user.call('webhooks.create', { url: 'https://hooks.example.test/3', events: ['alert.triggered'] }));
      expect(error).toMatchObject({ status: 403, code: 'limit_reached' });
      expect((await failure(get().as('ultimate').call('webhooks.create', { url: 'https://hooks.example.test/a', events: ['alert.triggered'], alert_id: 999_999 }))).status).toBe(404);
    });
  },
  { world: WORLD, postgres: true, webhooks: { lookup } },
);

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

async function drain(harness: EngineHarness, until: () => boolean) {
  // Through serve, its own loop may deliver first: either way the receiver gets each event.
  for (let pass = 0; pass < 200 && !until(); pass++) {
    await deliverDue(harness.engine);
    if (!until()) await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeEachEngine(
  'webhooks: events from the moving world, delivered and followed',
  (get, variant) => {
    it.runIf(variant.store === 'postgres' && variant.kind === 'embedded')('sends each event once from a fleet of two machines delivering at once', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const receiver = await startReceiver();
      receivers.push(receiver);
      receiver.secret = (await user.call('webhooks.create', { url: receiver.url, events: ['alert.triggered'] })).secret;
      await user.call('alerts.create', { name: 'Breakouts', alert_type: 'breakout' });
      await user.call('alerts.create', { name: 'New', alert_type: 'new_channel' });
      await harness.engine.advanceWorld('2d');
      const expected = (await user.call('events.list', {})).events.map((event) => event.id);
      expect(expected.length).toBeGreaterThan(1);
      const otherDir = tempDataDir();
      const other = await openEngine({ dataDir: otherDir, store: parseStoreLocation(harness.engine.storeUrl!), jobRunner: { mode: 'none' }, webhooks: harness.engine.webhooks });
      try {
        for (let pass = 0; pass < 50 && receiver.received.length < expected.length; pass++) await Promise.all([deliverDue(harness.engine), deliverDue(other)]);
      } finally {
        await other.close();
        fs.rmSync(otherDir, { recursive: true, force: true });
      }
      const ids = receiver.received.map((got) => got.headers['webhook-id']);
      expect(ids).toEqual(expected);
    });

    it('records one alert.triggered event per new channel of an alert, with the triggered feed\'s row, and delivers each signed', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const receiver = await startReceiver();
      receivers.push(receiver);
      const { alert } = await user.call('alerts.create', { name: 'Outliers', alert_type: 'outlier' });
      const created = await user.call('webhooks.create', { url: receiver.url, events: ['alert.triggered'], alert_id: alert.id });
      receiver.secret = created.secret;
      await harness.engine.advanceWorld('1d');
      const feed = await user.call('alerts.triggered', { alert_id: alert.id, per_page: 50 });
      const { events, cursor } = await user.call('events.list', { alert_id: alert.id });
      expect(feed.total).toBeGreaterThan(0);
      expect(events).toHaveLength(Math.min(feed.total, 100));
      const rows = new Map(feed.channels.map((row) => [row.channel_id, row]));
      for (const event of events) {
        expect(event).toMatchObject({ type: 'alert.triggered', id: expect.stringMatching(/^evt_/) });
        const row = rows.get((event.data as { channel_id: string }).channel_id);
        if (row) expect(event.data).toEqual({ ...row, triggered_at: event.data.triggered_at });
      }
      expect(cursor).toBe(events.at(-1)!.cursor);
      expect((await user.call('events.list', { after: cursor })).events).toEqual([]);
      // An unmoved world triggers nothing new: no new events.
      await harness.engine.evaluateAlerts();
      expect((await user.call('events.list', { after: cursor })).events).toEqual([]);

      await drain(harness, () => new Set(receiver.received.map((got) => got.headers['webhook-id'])).size >= feed.total);
      const ids = new Set(receiver.received.map((got) => got.headers['webhook-id']));
      expect(ids.size).toBe(feed.total);
      for (const got of receiver.received) expect(new Webhook(created.secret).verify(got.body, got.headers)).toMatchObject({ type: 'alert.triggered' });
    });

    it('records channel.new_upload for the uploads saved channels published while the world advanced', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const world = await harness.engine.platform();
      const saved = world.sampleChannels(30).map((channel) => channel.channel_id);
      const { folder } = await user.call('folders.create', { name: 'Watched' });
      await user.call('saved.add', { channel_ids: saved, folder_id: folder.id });
      const before = world.nowMs();
      await harness.engine.advanceWorld('2d');
      const after = world.nowMs();
      const { events } = await user.call('events.list', { types: ['channel.new_upload'] });
      const expected = [];
      for (const channelId of saved) {
        for (const video of await world.channelVideos(channelId)) {
          const at = Date.parse(video.published_at);
          if (video.channel_id === channelId && video.kind !== 'upcoming' && at > before && at <= after) expected.push(video.video_id);
        }
      }
      expect(expected.length).toBeGreaterThan(0);
      expect(events.map((event) => (event.data as { video_id: string }).video_id).sort()).toEqual(expected.sort());
      for (const event of events) {
        const data = event.data as { channel_id: string; kind: string; published_at: string };
        expect(saved).toContain(data.channel_id);
        expect(['longform', 'short']).toContain(data.kind);
      }
      // Another user, who saved nothing, has none of them.
      expect((await harness.as('ultimate').call('events.list', {})).events).toEqual([]);
    });

    it('holds a long-poll until an event arrives', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      await user.call('alerts.create', { name: 'New channels', alert_type: 'new_channel' });
      const started = Date.now();
      const waiting = user.call('events.list', { wait_seconds: 10 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await harness.engine.advanceWorld('3d');
      const { events } = await waiting;
      expect(events.length).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(9_000);
    });

    it('takes http to a loopback receiver when allowed, still never http to a public address', async () => {
      const user = get().as('ultimate');
      expect((await user.call('webhooks.create', { url: 'http://127.0.0.1:9/x', events: ['alert.triggered'] })).endpoint.url).toBe('http://127.0.0.1:9/x');
      expect((await failure(user.call('webhooks.create', { url: 'http://hooks.example.test/x', events: ['alert.triggered'] }))).message).toMatch(/http is allowed to loopback addresses only/);
    });
  },
  { world: WORLD, postgres: true, webhooks: { allowLoopback: true, lookup, retrySchedule: [1000] } },
);
