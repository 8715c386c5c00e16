/**
 * Every route of the route table over the wire, on each store: the remote client through `serve`
 * on the data dir's SQLite and on PostgreSQL. The contract suites go through `serve` on SQLite
 * only (and run embedded on both stores); this suite is what shows that each route's request,
 * answer and status travel the same way when `serve` works on the fleet store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeNames, routes, type RouteInput, type RouteName, type RouteOutput } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { requireSimulation, type SampleVideo } from '../../src/engine/platform/simulation.js';
import { upload, wavSample } from '../support/audio-fixtures.js';
import { PREMADE_VOICES, startElevenLabsFixture, type ElevenLabsFixture } from '../support/elevenlabs-fixture-server.js';
import { createHarness, failure, type StoreKind } from '../support/engines.js';
import { finished } from '../support/task-jobs.js';

/** What the steps share: the world's picks, and the ids earlier answers gave. */
interface WireContext {
  channelId: string;
  otherChannelId: string;
  handle: string;
  video: SampleVideo;
  folderId: number;
  otherFolderId: number;
  alertId: number;
  stealthVoiceId: string;
  altVoiceId: string;
  elevenLabsVoiceId: string;
  generationJobId: string;
  channelJobId: number;
  terminatedId: string;
  webhookId: number;
}

interface Step {
  route: RouteName;
  call(service: Service, context: WireContext): Promise<void>;
}

/** One call of a route; `check` sees the answer (already checked against the route's schema). */
function step<N extends RouteName>(route: N, input: (context: WireContext) => RouteInput<N>, check?: (answer: RouteOutput<N>, context: WireContext) => void | Promise<void>): Step {
  return {
    route,
    async call(service, context) {
      const answer = await service.call(route, input(context));
      await check?.(answer, context);
    },
  };
}

/** One call of a route that must be refused with `status` (a route whose success needs what a wire test cannot make). */
function refusedStep<N extends RouteName>(route: N, input: (context: WireContext) => RouteInput<N>, status: number): Step {
  return {
    route,
    async call(service, context) {
      expect((await failure(service.call(route, input(context)))).status).toBe(status);
    },
  };
}

const none = () => ({}) as never;

/** In an order where each call finds what it needs: made before read, read before deleted. */
const steps: Step[] = [
  step('health', none, (answer) => expect(answer.status).toBe('healthy')),
  step('voices.stealth.clone', () => ({ displayName: 'Wire', audioFile: upload(wavSample(2)) }), (answer, context) => {
    context.stealthVoiceId = answer.voice.voice_id;
  }),
  step('voices.stealth.list', none, (answer, context) => expect(JSON.stringify(answer)).toContain(context.stealthVoiceId)),
  step('voices.alt.clone', () => ({ voice_name: 'Wire alt', audio_file: upload(wavSample(31)) }), (answer, context) => {
    context.altVoiceId = answer.voice.voice_id;
  }),
  step('voices.alt.list', none, (answer, context) => expect(JSON.stringify(answer)).toContain(context.altVoiceId)),
  step('voices.catalog', () => ({ page_size: 10 }), (answer) => expect(answer.voices.length).toBeGreaterThan(0)),
  step('voices.elevenlabs.clone', () => ({ voice_name: 'Wire eleven', audio_file: upload(wavSample(2)) }), (answer, context) => {
    context.elevenLabsVoiceId = answer.voice.voice_id;
  }),
  step('generate', () => ({ script: 'A short sentence travels over the wire. '.repeat(6), voice_id: PREMADE_VOICES[0]!.voice_id, provider: 'elevenlabs' }), (answer, context) => {
    context.generationJobId = answer.job_id;
  }),
  step('jobs.status', (context) => ({ job_id: context.generationJobId, wait_seconds: 0 }), (answer) => expect(answer.job_id).toBeDefined()),
  step('jobs.list', () => ({ limit: 10 }), (answer, context) => expect(JSON.stringify(answer)).toContain(context.generationJobId)),
  step('channels.process', (context) => ({ channel: context.channelId, type: 'longform' }), (answer, context) => {
    context.channelJobId = answer.job_id;
  }),
  step('channels.processStatus', (context) => ({ job_id: context.channelJobId, wait_seconds: 0 }), (answer, context) => expect(answer.id).toBe(context.channelJobId)),
  step('channels.history', (context) => ({ channel_id: context.channelId, days: 7 }), (answer) => expect(answer.points).toHaveLength(7)),
  step('video.info', (context) => ({ url: context.video.url }), (answer, context) => expect(JSON.stringify(answer)).toContain(context.video.video_id)),
  step('download', (context) => ({ video_url: context.video.url, format: 'audio' }), (answer) => expect(answer.success).toBe(true)),
  step('channels.resolve', (context) => ({ input: context.handle }), (answer, context) => expect(answer.channel_id).toBe(context.channelId)),
  step('folders.create', () => ({ name: 'Wire' }), (answer, context) => {
    context.folderId = answer.folder.id;
  }),
  step('folders.rename', (context) => ({ id: context.folderId, name: 'Wire renamed' }), (answer) => expect(answer.folder.name).toBe('Wire renamed')),
  step('saved.add', (context) => ({ channel_ids: [context.channelId, context.otherChannelId], folder_id: context.folderId }), (answer) => expect(answer.success).toBe(true)),
  step('folders.create', () => ({ name: 'Wire second' }), (answer, context) => {
    context.otherFolderId = answer.folder.id;
  }),
  step('saved.move', (context) => ({ channel_id: context.otherChannelId, from_folder_id: context.folderId, to_folder_id: context.otherFolderId }), (answer) => expect(answer.success).toBe(true)),
  step('folders.list', none, (answer) => expect(answer.folders.length).toBeGreaterThanOrEqual(2)),
  step('folders.channels', (context) => ({ id: context.folderId }), (answer, context) => expect(JSON.stringify(answer)).toContain(context.channelId)),
  step('saved.remove', (context) => ({ channel_id: context.channelId }), (answer) => expect(answer.success).toBe(true)),
  step('folders.delete', (context) => ({ id: context.otherFolderId }), (answer) => expect(answer.success).toBe(true)),
  step('alerts.create', () => ({ name: 'Wire alert' }), (answer, context) => {
    context.alertId = answer.alert.id;
  }),
  step('alerts.update', (context) => ({ id: context.alertId, enabled: false }), (answer) => expect(answer.alert.enabled).toBe(false)),
  step('alerts.list', none, (answer, context) => expect(answer.alerts.map((alert) => alert.id)).toContain(context.alertId)),
  step('alerts.triggered', () => ({ per_page: 5 }), (answer) => expect(answer.success).toBe(true)),
  step('alerts.status', none, (answer) => expect(answer.success).toBe(true)),
  step('alerts.delete', (context) => ({ id: context.alertId }), (answer) => expect(answer.success).toBe(true)),
  step('monetization.external', (context) => ({ channel_id: context.channelId }), (answer) => expect(answer.success).toBe(true)),
  step('monetization.ads', (context) => ({ channel_id: context.channelId }), (answer) => expect(answer.success).toBe(true)),
  step('channels.checks', (context) => ({ channel_id: context.channelId }), (answer) => expect(answer.ads).not.toBeNull()),
  step('channels.videos', (context) => ({ channel_id: context.channelId, limit: 5 }), (answer) => expect(answer.videos.length).toBeGreaterThan(0)),
  step('cms.check', (context) => ({ channel_id: context.channelId }), (answer) => expect(answer.success).toBe(true)),
  step('cms.networks', () => ({ limit: 5 }), (answer) => expect(answer.success).toBe(true)),
  step('terminated.search', () => ({ q: 'a', per_page: 5 }), (answer, context) => {
    context.terminatedId = answer.channels[0]!.channel_id;
  }),
  step('terminated.show', (context) => ({ channel_id: context.terminatedId }), (answer, context) => expect(JSON.stringify(answer)).toContain(context.terminatedId)),
  step('analysis.submit', (context) => ({ video_url: context.video.url, prompt: 'Summarize.' }), (answer) => expect(answer.status).toBe('pending')),
  step('collabs.top', () => ({ per_page: 5 }), (answer) => expect(answer.success).toBe(true)),
  step('collabs.channel', (context) => ({ channel_id: context.channelId }), (answer) => expect(answer.success).toBe(true)),
  step('collabs.feed', () => ({ per_page: 5 }), (answer) => expect(answer.success).toBe(true)),
  step('webhooks.create', () => ({ url: 'https://hooks.example.test/wire', events: ['alert.triggered'] }), (answer, context) => {
    context.webhookId = answer.endpoint.id;
  }),
  step('webhooks.update', (context) => ({ id: context.webhookId, events: ['alert.triggered', 'channel.new_upload'] }), (answer) => expect(answer.endpoint.events).toHaveLength(2)),
  step('webhooks.rotateSecret', (context) => ({ id: context.webhookId }), (answer) => expect(answer.secret).toMatch(/^whsec_/)),
  step('webhooks.list', none, (answer, context) => expect(answer.endpoints.map((endpoint) => endpoint.id)).toContain(context.webhookId)),
  step('webhooks.deliveries', () => ({ limit: 5 }), (answer) => expect(answer.success).toBe(true)),
  step('events.list', () => ({ limit: 5, wait_seconds: 0 }), (answer) => expect(typeof answer.cursor).toBe('string')),
  // A delivery needs an event of an alert cycle; an unknown one shows the refusal travels whole.
  refusedStep('webhooks.redeliver', () => ({ id: 999_999 }), 404),
  step('webhooks.delete', (context) => ({ id: context.webhookId }), (answer, context) => expect(answer.id).toBe(context.webhookId)),
  step('voices.elevenlabs.delete', (context) => ({ voice_id: context.elevenLabsVoiceId }), (answer) => expect(answer.success).toBe(true)),
  step('voices.alt.delete', (context) => ({ voice_id: context.altVoiceId }), (answer) => expect(answer.success).toBe(true)),
  step('voices.stealth.delete', (context) => ({ voice_id: context.stealthVoiceId }), (answer) => expect(answer.success).toBe(true)),
];

it('covers every route of the route table', () => {
  const covered = new Set(steps.map((entry) => entry.route));
  expect(routeNames.filter((name) => !covered.has(name)), 'routes without a wire step (add one to route-wire.test.ts)').toEqual([]);
});

/** The engine's speech environment: ElevenLabs is a fixture API, so its routes reach their handlers. */
const speechEnv: NodeJS.ProcessEnv = {};
let elevenLabs: ElevenLabsFixture;
beforeAll(async () => {
  elevenLabs = await startElevenLabsFixture({ audioSeconds: 20 });
  Object.assign(speechEnv, { TUBEKIT_ELEVENLABS_API_KEY: elevenLabs.key, TUBEKIT_ELEVENLABS_BASE_URL: elevenLabs.baseUrl });
}, 60_000);
afterAll(() => elevenLabs?.close());

for (const store of ['sqlite', 'postgres'] as StoreKind[]) {
  describe(`every route through serve [${store}]`, () => {
    let current: Awaited<ReturnType<typeof createHarness>>;
    let service: Service;
    const context = {} as WireContext;

    beforeAll(async () => {
      current = await createHarness('remote', { speechSettings: { env: speechEnv }, webhooks: { lookup: async () => ['93.184.216.34'] }, world: { seed: 5, channels: 120, terminated: 40 } }, store);
      await setWorkSetting(current.harness.engine.settings, { preset: 'instant' });
      const world = requireSimulation(await current.harness.engine.platform());
      const [first, second] = world.sampleChannels(2);
      Object.assign(context, { channelId: first!.channel_id, otherChannelId: second!.channel_id, handle: first!.handle });
      context.video = world.sampleVideos(40).find((video) => video.kind === 'long' && video.captions !== null)!;
      service = current.harness.as('ultimate');
    }, 120_000);
    afterAll(() => current?.close());

    it('answers each route with its documented success, in the route\'s schema', async () => {
      for (const entry of steps) {
        const route = routes[entry.route];
        await entry.call(service, context).catch((error: Error) => {
          throw new Error(`${route.method} ${route.path} (${entry.route}): ${error.message}`, { cause: error });
        });
      }
      // The jobs the steps queued end on this store as they do on the other.
      const generation = await finished(service, context.generationJobId);
      expect(generation.status, JSON.stringify(generation)).toBe('completed');
    }, 180_000);
  });
}
