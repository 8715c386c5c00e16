import type { Clock } from './clock.js';
import type { Identity, Principal } from './identity/identity.js';
import type { JobSystem } from './jobs/job-system.js';
import type { Plan, PlanLimits } from './limits/plans.js';
import type { RateLimiter } from './limits/rate-limiter.js';
import type { Db } from './store/database.js';
import type { Settings } from './store/settings.js';
import type { Store } from './store/store.js';
import type { EngineIndex, TerminatedIndex } from './index/engine-index.js';
import type { LiveTerminatedRepository } from './index/terminated/live-repository.js';
import type { MediaProgress } from './platform/media.js';
import type { PlatformProvider } from './platform/platform.js';
import type { AnalysisSettingsSource } from './features/analysis/providers/provider-config.js';
import type { SpeechSettingsSource } from './speech/providers/speech-settings.js';
import type { WebhookSettings } from './features/webhooks/settings.js';
import type { ParsedInput, RouteName, RouteOutput } from '../core/routes.js';

/** What every feature of the engine can reach. */
export interface EngineContext {
  readonly dataDir: string;
  /** Where files served by the CDN live (the data dir unless `--files-dir`: a fleet's shared directory). */
  readonly filesDir: string;
  /** The store as named by --store/TUBEKIT_STORE (absent: the data dir's), for detached workers. */
  readonly storeUrl?: string;
  /** The data dir's SQLite file: the areas not yet moved to `store` (and the sample world) live here. */
  readonly db: Db;
  /** Where shared state lives: the same SQLite file, or a fleet's PostgreSQL (store/store.ts). */
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: Settings;
  /**
   * Settings about state kept in `db` — the platform and the sample world's parameters — per data
   * dir even in a fleet (the same as `settings` on SQLite).
   */
  readonly localSettings: Settings;
  readonly identity: Identity;
  readonly rates: RateLimiter;
  /** The platform channels and videos are read from, loaded on first use. */
  platform(): Promise<PlatformProvider>;
  /** What the service knows and since when (statistics history, collab graph, terminated channels…), seeded by the platform. */
  index(): Promise<EngineIndex>;
  /** The index's terminated channels (on a live data dir a store of its own, open before the rest of the live index). */
  terminated(): Promise<TerminatedIndex>;
  /** The live platform's store of terminated channels, where the engine keeps its state (SQLite or the fleet's PostgreSQL). */
  liveTerminatedStore(): Promise<LiveTerminatedRepository>;
  /** The shared job queue and its workers. */
  readonly jobs: JobSystem;
  /** Where analysis jobs find their vision model, read when a job runs. */
  readonly analysisSettings: AnalysisSettingsSource;
  /** Where the upstream speech providers' keys and addresses are read (speech/providers/registry.ts chooses from them). */
  readonly speechSettings: SpeechSettingsSource;
  /** How this process sends webhooks (loopback allowance, retry schedule, bounds). */
  readonly webhooks: WebhookSettings;
  /** The plan table with this engine's overrides applied. */
  planLimits(plan: Plan): PlanLimits;
}

/** One call: the engine, the caller, and the caller's limits. */
export interface RequestContext {
  readonly engine: EngineContext;
  readonly user: Principal;
  readonly limits: PlanLimits;
  readonly signal?: AbortSignal;
  /** Told how far a long piece of work is (a download's fetch), for an in-process caller's progress bar. */
  readonly onProgress?: (progress: MediaProgress) => void;
  /** The server's address as this caller reached it (`serve`); absent for in-process calls. */
  readonly baseUrl?: string;
}

export type Handler<N extends RouteName> = (
  request: RequestContext,
  input: ParsedInput<N>,
) => RouteOutput<N> | Promise<RouteOutput<N>>;

/** Each feature module exports a partial table; the engine merges them. */
export type Handlers = { [N in RouteName]?: Handler<N> };

/** Handlers of open routes (`auth: false`) for a caller without a key. */
export type PublicHandlers = { [N in RouteName]?: (engine: EngineContext, input: ParsedInput<N>) => RouteOutput<N> | Promise<RouteOutput<N>> };
