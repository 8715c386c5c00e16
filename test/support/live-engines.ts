/**
 * Runs one scenario suite against both engines on a live data dir: the platform setting is `live`,
 * and every request of the live platform goes to a fixture server on 127.0.0.1
 * (TUBEKIT_PLATFORM_ORIGIN), which answers the exchanges the suite lists and 404 to anything else.
 */
import { afterAll, beforeAll, describe, vi } from 'vitest';
import { createHarness, engineVariants, type EngineHarness, type HarnessOptions } from './engines.js';
import { type FixtureExchange, type FixtureServer, startFixtureServer } from './platform-fixture-server.js';

export interface LiveHarness extends EngineHarness {
  server: FixtureServer;
}

export function describeEachEngineOnLive(title: string, site: () => FixtureExchange[], body: (get: () => LiveHarness) => void, options: HarnessOptions = {}) {
  for (const { kind, store } of engineVariants(options.postgres ?? false)) {
    describe(`${title} [${kind}, live platform${store === 'sqlite' ? '' : `, ${store}`}]`, () => {
      let current: Awaited<ReturnType<typeof createHarness>> | undefined;
      let server: FixtureServer | undefined;
      beforeAll(async () => {
        server = await startFixtureServer(site());
        vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', server.origin);
        vi.stubEnv('TUBEKIT_PLATFORM_RATE', '100');
        current = await createHarness(kind, options, store);
        await current.harness.engine.localSettings.set('platform', 'live');
      });
      afterAll(async () => {
        await current?.close();
        await server?.close();
        vi.unstubAllEnvs();
      });
      body(() => ({ ...current!.harness, server: server! }));
    });
  }
}
