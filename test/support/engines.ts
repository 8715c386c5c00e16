/**
 * Runs one scenario suite against both engines: the in-process engine, and the remote client
 * talking to `serve` on an ephemeral port over the same kind of data dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { Engine, type EngineOptions } from '../../src/engine/engine.js';
import type { Plan } from '../../src/engine/limits/plans.js';
import type { Scope } from '../../src/engine/identity/identity.js';
import { LocalService } from '../../src/engine/local-service.js';
import { openEngine } from '../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { RemoteService } from '../../src/remote/remote-service.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { createTestDatabase } from './postgres.js';
import { checkingResponses } from './strict-responses.js';
import { onlyEmbeddedSqlite } from './world-date.js';

export type EngineKind = 'embedded' | 'remote';
/** Where the engine keeps its state: the data dir's SQLite file, or a database of its own on the test run's PostgreSQL. */
export type StoreKind = 'sqlite' | 'postgres';

export interface EngineHarness {
  kind: EngineKind;
  store: StoreKind;
  engine: Engine;
  /** Base URL of `serve` (remote kind only). */
  baseUrl?: string;
  /** A Service acting as a new user on `plan` (default ultimate, all scopes). */
  as(plan?: Plan, scopes?: Scope[]): Service;
  /** A Service sending this exact key (for authentication tests). */
  withKey(key: string | undefined): Service;
}

export function tempDataDir(prefix = 'tubekit-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface HarnessOptions extends Partial<EngineOptions> {
  world?: { seed: number; channels: number; terminated?: number };
  /**
   * False only for a suite whose answers carry a test double's values outside the published enums
   * (task-jobs' own job kind); every other suite's successful answers are checked (strict-responses.ts).
   */
  strictResponses?: boolean;
  /** Also run the suite embedded on PostgreSQL (describeEachEngine). */
  postgres?: boolean;
  /** A live data dir (its platform's origin comes from TUBEKIT_PLATFORM_ORIGIN: see live-harness.ts). */
  platform?: 'live';
}

export async function createHarness(kind: EngineKind, options: HarnessOptions = {}, store: StoreKind = 'sqlite') {
  const dataDir = options.dataDir ?? tempDataDir();
  const location = store === 'postgres' ? parseStoreLocation(await createTestDatabase()) : undefined;
  const engine = await openEngine({ ...options, dataDir, store: location });
  if (options.platform === 'live') await engine.localSettings.set('platform', 'live');
  if (options.world) await engine.reseedWorld(options.world);
  let server: RunningServer | undefined;
  if (kind === 'remote') server = await startServer({ engine, port: 0 });
  const services: Service[] = [];
  const withKey = (key: string | undefined): Service => {
    const service =
      kind === 'embedded'
        ? new LocalService(engine, key ?? '')
        : new RemoteService({ baseUrl: server!.url, apiKey: key, maxRetries: 0 });
    services.push(service);
    // Both engines' calls pass here: every successful answer must match its response schema, strictly.
    return options.strictResponses === false ? service : checkingResponses(service);
  };
  const harness: EngineHarness = {
    kind,
    store,
    engine,
    baseUrl: server?.url,
    as(plan = 'ultimate', scopes = ['generations']) {
      // The user is made in the store (asynchronously); the service waits for it on its first call.
      return deferredService(engine.identity.createUserWithKey(plan, scopes).then((created) => withKey(created.key)));
    },
    withKey,
  };
  const close = async () => {
    for (const service of services) await service.close().catch(() => undefined);
    await server?.close();
    await engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { harness, close };
}

/** The environment a CLI process needs to work on the harness's engine: its data dir and, on Postgres, its database. */
export function engineEnv(harness: EngineHarness): Record<string, string> {
  return { TUBEKIT_DATA_DIR: harness.engine.dataDir, ...(harness.store === 'postgres' ? { TUBEKIT_STORE: harness.engine.storeUrl! } : {}) };
}

/** Which engine and store a suite's copy runs on: known when tests are declared, for `it.runIf`/`it.skipIf`. */
export interface EngineVariant {
  kind: EngineKind;
  store: StoreKind;
}

/**
 * The variants a suite runs in: embedded on SQLite, through `serve` on SQLite, and (for suites
 * that ask) embedded on PostgreSQL. `serve` on PostgreSQL is covered route by route by
 * test/server/route-wire.test.ts rather than by a fourth copy of every suite.
 */
export function engineVariants(postgres: boolean): EngineVariant[] {
  if (onlyEmbeddedSqlite()) return [{ kind: 'embedded', store: 'sqlite' }];
  const variants: EngineVariant[] = [{ kind: 'embedded', store: 'sqlite' }, { kind: 'remote', store: 'sqlite' }];
  if (postgres) variants.push({ kind: 'embedded', store: 'postgres' });
  return variants;
}

export function describeEachEngine(title: string, body: (get: () => EngineHarness, variant: EngineVariant) => void, options: HarnessOptions = {}) {
  for (const { kind, store } of engineVariants(options.postgres ?? false)) {
    describe(`${title} [${kind}${store === 'sqlite' ? '' : `, ${store}`}]`, () => {
      let current: Awaited<ReturnType<typeof createHarness>>;
      beforeAll(async () => {
        current = await createHarness(kind, options, store);
      });
      afterAll(async () => {
        await current?.close();
      });
      body(() => current.harness, { kind, store });
    });
  }
}

/** A Service that is still being made (its user created in the store): every call waits for it first. */
export function deferredService(pending: Promise<Service>): Service {
  pending.catch(() => undefined);
  return {
    get target() {
      return { mode: 'local', location: '(being opened)' } as const;
    },
    call: async (name, input, options) => (await pending).call(name, input, options),
    fetchFile: async (url, options) => (await pending).fetchFile(url, options),
    callPath: async (request, options) => (await pending).callPath(request, options),
    close: async () => (await pending.catch(() => undefined))?.close(),
  };
}

/** Resolves to the ServiceError a call rejects with (fails the test if it succeeds). */
export async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string; message: string; hint?: string; retryAfterSeconds?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as never;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
