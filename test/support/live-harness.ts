/**
 * Contract scenarios on the live platform: a made-up site (live-site.ts) served by the fixture
 * server on 127.0.0.1, a live data dir whose platform reaches it through TUBEKIT_PLATFORM_ORIGIN,
 * and a manual engine clock that tests move (snapshots and "now" follow it). Each suite runs on
 * both engines, like describeEachEngine; `describeEachPlatform` runs it on the sample world too.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import { DAY_MS } from '../../src/engine/dates.js';
import { createHarness, type EngineHarness, type HarnessOptions, type StoreKind } from './engines.js';
import { LiveSite } from './live-site.js';
import { startFixtureServer, type FixtureServer } from './platform-fixture-server.js';

export interface LiveHarness extends EngineHarness {
  platform: 'sample' | 'live';
  clock: ManualClock;
  /** The live platform's site (live suites only). */
  site?: LiveSite;
  server?: FixtureServer;
}

export interface LiveSuiteOptions extends HarnessOptions {
  /** Builds the site's channels (live suites). */
  site?: (site: LiveSite, clock: ManualClock) => void;
}

/** The fixtures' "now": a fixed instant tests move forward. */
export const LIVE_START = Date.UTC(2026, 10, 1, 0, 0, 0);

async function openSuite(platform: 'sample' | 'live', kind: 'embedded' | 'remote', options: LiveSuiteOptions, store: StoreKind) {
  const clock = new ManualClock(LIVE_START);
  let site: LiveSite | undefined;
  let server: FixtureServer | undefined;
  const saved = { origin: process.env.TUBEKIT_PLATFORM_ORIGIN, rate: process.env.TUBEKIT_PLATFORM_RATE };
  if (platform === 'live') {
    site = new LiveSite(() => clock.now());
    options.site?.(site, clock);
    server = await startFixtureServer(site.exchanges());
    process.env.TUBEKIT_PLATFORM_ORIGIN = server.origin;
    process.env.TUBEKIT_PLATFORM_RATE = '100';
  }
  // The queue measures leases and worker heartbeats on the engine clock, which these tests move by
  // days at a time: longer than any test moves it, so a running worker never looks dead.
  const jobTiming = { leaseMs: 400 * DAY_MS, hostStaleMs: 365 * DAY_MS, heartbeatMs: 1_000, ...options.jobTiming };
  const { harness, close } = await createHarness(kind, { clock, ...options, jobTiming, platform: platform === 'live' ? 'live' : undefined }, store);
  // The platform reads the environment when it opens: open it now, while it is set.
  if (platform === 'live') await harness.engine.platform();
  const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
  restore('TUBEKIT_PLATFORM_ORIGIN', saved.origin);
  restore('TUBEKIT_PLATFORM_RATE', saved.rate);
  return {
    harness: { ...harness, platform, clock, site, server } as LiveHarness,
    close: async () => {
      await close();
      await server?.close();
    },
  };
}

function describeSuite(platforms: ReadonlyArray<'sample' | 'live'>, title: string, body: (get: () => LiveHarness) => void, options: LiveSuiteOptions) {
  // `postgres: true`: once more on each engine with the engine's store on PostgreSQL.
  const stores: StoreKind[] = options.postgres ? ['sqlite', 'postgres'] : ['sqlite'];
  for (const store of stores) {
    for (const platform of platforms) {
      for (const kind of ['embedded', 'remote'] as const) {
        describe(`${title} [${platform}, ${kind}${store === 'sqlite' ? '' : `, ${store}`}]`, () => {
          let current: Awaited<ReturnType<typeof openSuite>> | undefined;
          beforeAll(async () => {
            current = await openSuite(platform, kind, options, store);
          });
          afterAll(async () => {
            await current?.close();
          });
          body(() => current!.harness);
        });
      }
    }
  }
}

/** A suite on a live data dir, on both engines. */
export function describeLive(title: string, body: (get: () => LiveHarness) => void, options: LiveSuiteOptions = {}) {
  describeSuite(['live'], title, body, options);
}

/** A suite that makes sense on both platforms: on the sample world and on a live data dir, on both engines. */
export function describeEachPlatform(title: string, body: (get: () => LiveHarness) => void, options: LiveSuiteOptions = {}) {
  describeSuite(['sample', 'live'], title, body, options);
}
