import fs from 'node:fs';
import { badRequest, fileTooLarge, forbidden, insufficientStorage, notImplemented, unauthorized } from '../core/errors.js';
import type { RouteTag } from '../core/route.js';
import { loadRoute, loadedRoute } from '../core/route-loader.js';
import type { RouteInput, RouteName, RouteOutput } from '../core/routes.js';
import { formatIssues } from '../core/schemas/format-issues.js';
import { refuseNulCharacters } from '../core/schemas/nul-characters.js';
import type { UploadedFile } from '../core/schemas/params.js';
import { systemClock, type Clock } from './clock.js';
import type { EngineContext, Handler, Handlers, PublicHandlers, RequestContext } from './context.js';
import { requireScope, requireVoicePlan } from './features/access.js';
import { featureLoaders, loadAllFeatures } from './features/catalog.js';
import { Identity, type Principal } from './identity/identity.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { resolvePlanTable, type Plan, type PlanLimits, type PlanOverrides } from './limits/plans.js';
import { databaseFile, defaultKeyFile } from './paths.js';
import { openDatabase, type Db } from './store/database.js';
import { isDiskFull } from './store/disk-space.js';
import { Settings } from './store/settings.js';
import { SqliteStore } from './store/sqlite-store.js';
import type { Store, Transaction } from './store/store.js';
import type { EngineIndex, TerminatedIndex } from './index/engine-index.js';
import type { LiveTerminatedRepository } from './index/terminated/live-repository.js';
import { dataDirPlatform, openPlatform, openSharedWorld, reseedSampleWorld, worldIsShared, type OpenedPlatform, type PlatformOptions, type SharedWorld } from './platform/factory/open-platform.js';
import type { PlatformProvider } from './platform/platform.js';
import { requireSimulation, type AdvanceReport, type WorldSettings } from './platform/simulation.js';
import type { CycleReason, CycleReport } from './features/alerts/cycle.js';
import type { RefreshReport, SweepOptions } from './features/refresh/sweep.js';
import { DURATION_FORMS, parseDuration } from '../core/duration.js';
import { commandJobSettings } from './jobs/job-settings.js';
import { JobSystem, type JobRunner } from './jobs/job-system.js';
import type { JobTiming } from './jobs/timing.js';
import type { SpeechSettingsSource } from './speech/providers/speech-settings.js';
import type { AnalysisSettingsSource } from './features/analysis/providers/provider-config.js';
import { webhookSettings, type WebhookSettings } from './features/webhooks/settings.js';

/** The settings key of `engine limits set` overrides. */
const LIMITS_SETTING = 'limits';

/** Route tags whose endpoints need the Professional or Ultimate plan, whatever the input. */
const PLAN_GATED_TAGS = new Set<RouteTag>(['voices', 'generation']);

export interface EngineOptions {
  dataDir: string;
  clock?: Clock;
  /** Limit overrides on top of those stored in the engine's settings (tests use this). */
  planOverrides?: PlanOverrides;
  /** Who runs queued jobs: in-process workers (default), a detached worker (local CLI), or nobody. */
  jobRunner?: JobRunner;
  /** Lease, heartbeat and polling intervals of the job queue (tests shorten them). */
  jobTiming?: Partial<JobTiming>;
  /**
   * A fleet's shared store (PostgreSQL, opened by open-engine.ts) and its settings. Without it the
   * engine keeps everything in the data dir's SQLite file, as it always has.
   */
  fleet?: { store: Store; settings: Settings };
  /** Where files are kept (downloads, audio, the CDN): a fleet's shared directory; default: the data dir. */
  filesDir?: string;
  /** The SQLite file (`--store sqlite:<file>`); default: tubekit.db in the data dir. */
  databaseFile?: string;
  /** The store as the user named it, handed to detached workers (never printed: it may hold a password). */
  storeUrl?: string;
  /** Where analysis jobs find their vision model (default: this process's environment only). */
  analysisSettings?: AnalysisSettingsSource;
  /** Where generation and voices find the upstream speech providers' keys (default: this process's environment only). */
  speechSettings?: SpeechSettingsSource;
  /** The live platform's proxy and cookies file as the caller chose them, and where its notices go (`--verbose`). */
  platform?: PlatformOptions;
  /** How this process sends webhooks (default: from the environment). */
  webhooks?: Partial<WebhookSettings>;
}

/**
 * The embedded engine: the service's server-side logic on a local SQLite database.
 * `handle` is the single entry point; the in-process service and `serve` both call it.
 */
/** Calls that read the live site while they answer (jobs and the sweep store their reads in their own units). */
const READS_TOGETHER: ReadonlySet<string> = new Set(['channels.resolve', 'video.info', 'cms.check', 'monetization.ads', 'monetization.external']);

export class Engine implements EngineContext {
  readonly db: Db;
  readonly store: Store;
  readonly clock: Clock;
  readonly settings: Settings;
  readonly localSettings: Settings;
  readonly identity: Identity;
  readonly rates: RateLimiter;
  readonly jobs: JobSystem;
  readonly dataDir: string;
  /** Where files served by the CDN live (the data dir unless `--files-dir`). */
  readonly filesDir: string;
  readonly storeUrl?: string;
  readonly analysisSettings: AnalysisSettingsSource;
  readonly speechSettings: SpeechSettingsSource;
  readonly webhooks: WebhookSettings;
  /** The platform and the index it seeds, opened on first use. */
  private opened?: { platform: Promise<PlatformProvider>; index: Promise<EngineIndex> };
  /** On a fleet's store, the sample world's shared definition and clock (opened on first use), and the opening `opened` was made from. */
  private sharedWorld?: Promise<SharedWorld>;
  private openedFrom?: OpenedPlatform;
  /** A live data dir's terminated channels (in the engine's store), opened on first use. */
  private liveTerminated?: Promise<LiveTerminatedRepository>;
  private readonly handlers: Handlers = {};
  /** Handlers of open routes for callers without a key, loaded on first use. */
  private publicHandlers?: PublicHandlers;
  private planTable: Record<Plan, PlanLimits>;
  private readonly extraOverrides?: PlanOverrides;
  private readonly platformOptions: PlatformOptions;
  /** Whether `--verbose` has been told which platform the data dir uses. */
  private platformAnnounced = false;

  private constructor(options: EngineOptions) {
    this.dataDir = options.dataDir;
    this.filesDir = options.filesDir ?? options.dataDir;
    this.storeUrl = options.storeUrl;
    this.analysisSettings = options.analysisSettings ?? { env: process.env };
    this.speechSettings = options.speechSettings ?? { env: process.env };
    this.webhooks = webhookSettings(process.env, options.webhooks);
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    this.clock = options.clock ?? systemClock;
    this.db = openDatabase(options.databaseFile ?? databaseFile(options.dataDir));
    this.store = options.fleet?.store ?? new SqliteStore(this.db);
    // In a fleet, users live in the shared store: the data dir's tables that name a user (voices,
    // download slots, analysis uploads, alerts) cannot reference them across databases.
    if (options.fleet) this.db.pragma('foreign_keys = OFF');
    this.localSettings = Settings.onSqlite(this.db);
    this.settings = options.fleet?.settings ?? this.localSettings;
    this.identity = new Identity(this.store, this.clock);
    this.rates = new RateLimiter(this.store, this.clock);
    this.platformOptions = options.platform ?? {};
    this.jobs = new JobSystem(this, this.store, this.clock, this.withPlatformOptions(options.jobRunner), options.jobTiming);
    this.extraOverrides = options.planOverrides;
    this.planTable = this.loadPlanTable();
    // A fleet's `engine limits set` reaches every server at once.
    this.settings.onChange((key) => {
      if (key === undefined || key === LIMITS_SETTING) this.reloadLimits();
    });
  }

  static open(options: EngineOptions): Engine {
    return new Engine(options);
  }

  /** A detached worker runs with this engine's settings: its environment, the caller's proxy, cookies file and files dir. */
  private withPlatformOptions(runner: JobRunner | undefined): JobRunner | undefined {
    if (runner?.mode !== 'spawn' || runner.spawn || runner.settings) return runner;
    const { proxy, cookiesFile } = this.platformOptions;
    const command = { proxy, cookiesFile, filesDir: this.filesDir !== this.dataDir ? this.filesDir : undefined };
    return { ...runner, settings: () => commandJobSettings(this.dataDir, process.env, command) };
  }

  /** `--verbose` says once which platform the data dir uses, when something first reads it. */
  private announcePlatform(): void {
    if (this.platformAnnounced) return;
    this.platformAnnounced = true;
    this.platformOptions.trace?.(`platform: ${dataDirPlatform(this.localSettings)} (data dir ${this.dataDir})`);
  }

  private openOptions() {
    // The live platform's time is the engine's clock: snapshots and "now" move with it (tests move it).
    return { dataDir: this.dataDir, env: process.env, options: this.platformOptions, clock: () => this.clock.now() };
  }

  /**
   * The platform the engine reads from (the data dir's, through the platform factory), opened on
   * first use. Its code is imported only then, so calls that never read the platform (`folders
   * list`) start faster.
   */
  platform(): Promise<PlatformProvider> {
    this.announcePlatform();
    if (worldIsShared(this.store, this.localSettings)) return this.sharedOpened().then((opened) => opened.platform);
    return (this.opened ?? this.open(() => openPlatform(this.db, this.localSettings, this.openOptions()))).platform;
  }

  /** What the service knows (statistics history, collab graph, terminated channels…), seeded by the platform or filled by its reads. */
  index(): Promise<EngineIndex> {
    this.announcePlatform();
    if (worldIsShared(this.store, this.localSettings)) return this.sharedOpened().then((opened) => opened.index);
    return (this.opened ?? this.open(() => openPlatform(this.db, this.localSettings, this.openOptions()))).index;
  }

  /**
   * The index's terminated channels: on the sample platform the world's (through the index); on a
   * live data dir the store the refresh sweep and `engine import terminated` fill
   * (index/terminated/live-*.ts), which needs nothing else of the live index.
   */
  terminated(): Promise<TerminatedIndex> {
    if (dataDirPlatform(this.localSettings) !== 'live') return this.index().then((index) => index.terminated);
    this.announcePlatform();
    return this.liveTerminatedStore();
  }

  /**
   * The live store of terminated channels, in the engine's store: the data dir's SQLite, or the
   * fleet's PostgreSQL (index/terminated/live-repository.ts chooses by the store's dialect).
   */
  liveTerminatedStore(): Promise<LiveTerminatedRepository> {
    if (!this.liveTerminated) {
      const opening = import('./index/terminated/live-repository.js').then(({ openLiveTerminatedRepository }) =>
        openLiveTerminatedRepository(this.db, this.store, () => this.clock.now()),
      );
      opening.catch(() => {
        if (this.liveTerminated === opening) this.liveTerminated = undefined;
      });
      this.liveTerminated = opening;
    }
    return this.liveTerminated;
  }

  /** Rebuilds the sample world with new parameters (`tubekit engine seed`); the index starts from its new seed. */
  reseedWorld(settings: WorldSettings): Promise<PlatformProvider> {
    if (worldIsShared(this.store, this.localSettings)) {
      return this.shared()
        .then((shared) => reseedSampleWorld(this.db, this.localSettings, process.env, settings, shared))
        .then((opened) => this.openedAs(opened).platform);
    }
    return this.open(() => reseedSampleWorld(this.db, this.localSettings, process.env, settings)).platform;
  }

  /** A fleet's sample world (its definition and clock in the store), opened once; an opening that fails is tried again. */
  private shared(): Promise<SharedWorld> {
    if (!this.sharedWorld) {
      const opening = openSharedWorld(this.db, this.store, this.localSettings, process.env);
      opening.catch(() => {
        if (this.sharedWorld === opening) this.sharedWorld = undefined;
      });
      this.sharedWorld = opening;
    }
    return this.sharedWorld;
  }

  /**
   * On a fleet: the world as the store says now (its row read before every read of the world, so
   * no answer comes from a world another server has since reseeded or moved), with the index it
   * seeds opened again when the world was rebuilt.
   */
  private async sharedOpened(): Promise<{ platform: Promise<PlatformProvider>; index: Promise<EngineIndex> }> {
    return this.openedAs(await (await this.shared()).opened());
  }

  private openedAs(current: OpenedPlatform): { platform: Promise<PlatformProvider>; index: Promise<EngineIndex> } {
    if (this.opened && this.openedFrom === current) return this.opened;
    this.openedFrom = current;
    return this.open(async () => current);
  }

  /** Opens the platform and its index, memoised; an opening that fails is forgotten, to be tried again. */
  private open(build: () => Promise<OpenedPlatform>): { platform: Promise<PlatformProvider>; index: Promise<EngineIndex> } {
    const opening = build();
    // A platform that brings no seed (live) fills the index with its reads: its reads are recorded.
    const live = opening.then(async (result) => {
      if (result.seed) return undefined;
      const [{ openLiveIndex }, { recordingPlatform }] = await Promise.all([import('./index/live/live-index.js'), import('./index/live/recording-platform.js')]);
      const { platform, recording } = recordingPlatform(result.platform, this.store);
      // Its terminated part is the engine's live terminated store (the fleet's, on PostgreSQL).
      return { platform, index: { ...openLiveIndex(this.store, this.db, () => this.clock.now()), terminated: await this.liveTerminatedStore(), reads: recording } };
    });
    const opened = {
      platform: opening.then(async (result) => (result.seed ? result.platform : (await live)!.platform)),
      index: opening.then(async (result) => (result.seed ? (await import('./index/engine-index.js')).openIndex(this.db, result.seed) : (await live)!.index)),
    };
    live.catch(() => undefined);
    this.opened = opened;
    const forget = () => {
      if (this.opened === opened) this.opened = undefined;
    };
    opening.catch(forget);
    // Callers await the one they asked for; the other's failure is theirs to see, not an unhandled rejection.
    opened.platform.catch(() => undefined);
    opened.index.catch(forget);
    return opened;
  }

  /**
   * Moves the sample world's clock forward by a span (`'1d'`, `'6h'`, or milliseconds) and runs an
   * alert cycle over the moved world. World time is the platform's own clock, separate from
   * `clock` (see src/engine/platform/sample/README.md); tests call this to make the world move.
   */
  async advanceWorld(span: string | number): Promise<{ world: AdvanceReport; alerts: CycleReport }> {
    const ms = typeof span === 'number' ? span : parseDuration(span);
    if (ms === null) throw new RangeError(`"${span}" is not a span of world time: use ${DURATION_FORMS}`);
    const platform = await this.platform();
    if (platform.source === 'live') {
      // A live data dir has no world: its figures move when the refresh sweep reads the site.
      throw badRequest(
        'A live data dir has no world to move: its figures change when the refresh sweep reads the site again.',
        'Run `tubekit engine refresh` to read the watched channels that are due now (the schedule runs it on its own).',
      );
    }
    const simulation = requireSimulation(platform, 'Moving the world');
    // A fleet's world moves in the store, for every server.
    const { recordNewUploads } = await import('./features/events/new-uploads.js');
    // The uploads it published become events in the advance's own transaction.
    const uploads = async (tx: Transaction, world: PlatformProvider, moved: AdvanceReport) =>
      void (await recordNewUploads(tx, world, Date.parse(moved.from), Date.parse(moved.to), this.clock.now()));
    const world = worldIsShared(this.store, this.localSettings)
      ? await (await this.shared()).advance(ms, uploads)
      : await this.store.transaction(async (tx) => {
          const moved = simulation.advance(ms);
          await uploads(tx, platform, moved);
          return moved;
        });
    return { world, alerts: await this.evaluateAlerts('advance') };
  }

  /**
   * One refresh sweep of a live data dir now (features/refresh/sweep.ts): the watched channels that
   * are due are read again, then an alert cycle runs over the index.
   */
  async refresh(options?: SweepOptions): Promise<RefreshReport> {
    const { runRefreshSweep } = await import('./features/refresh/sweep.js');
    return runRefreshSweep(this, options);
  }

  private sweeping?: Promise<CycleReport>;

  /**
   * What `serve` and `engine worker` run on their schedule: on the live platform a refresh sweep,
   * which is its alert cycle; on the sample world an alert cycle. One at a time per engine: a
   * sweep still running when the next is due is not started again.
   */
  scheduledCycle(): Promise<CycleReport> {
    this.sweeping ??= (async () => {
      const platform = await this.platform();
      return platform.simulation ? this.evaluateAlerts('schedule') : (await this.refresh({ reason: 'schedule' })).alerts;
    })().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  /** Runs one alert evaluation cycle over the world as it is now (see features/alerts/cycle.ts). */
  async evaluateAlerts(reason: CycleReason = 'command'): Promise<CycleReport> {
    const { runAlertCycle } = await import('./features/alerts/cycle.js');
    return runAlertCycle(this, reason);
  }

  planLimits(plan: Plan): PlanLimits {
    return this.planTable[plan];
  }

  /** Re-reads limit overrides after `engine limits set` changed them. */
  reloadLimits(): void {
    this.planTable = this.loadPlanTable();
  }

  private loadPlanTable(): Record<Plan, PlanLimits> {
    return resolvePlanTable(mergeOverrides(this.settings.get<PlanOverrides>(LIMITS_SETTING), this.extraOverrides));
  }

  defaultKey(): Promise<string> {
    return this.identity.ensureDefaultKey(defaultKeyFile(this.dataDir));
  }

  authenticate(key: string | undefined): Promise<Principal> {
    return this.identity.authenticate(key);
  }

  /** Validates the raw input against the route's schema and runs the feature's handler. */
  async handle<N extends RouteName>(
    name: N,
    raw: RouteInput<N> | Record<string, unknown>,
    user: Principal,
    /** Or a function making it on first use (serve: most requests never need one). */
    signal?: AbortSignal | (() => AbortSignal),
    baseUrl?: string,
    /** An in-process caller's progress bar (a download's fetch). */
    onProgress?: RequestContext['onProgress'],
  ): Promise<RouteOutput<N>> {
    // Like handlers, a loaded route is taken without an await.
    const route = loadedRoute(name) ?? (await loadRoute(name));
    if (user.plan === 'none' && !route.openToAllPlans) {
      throw forbidden(
        'An active subscription is required for every endpoint; this key has none.',
        'plan_required',
        'Subscribe to a plan, or use a key of a user with a plan.',
      );
    }
    const request = new Call(this, user, this.planLimits(user.plan), baseUrl, signal, onProgress);
    // Voice and speech endpoints are closed to the plan as a whole: say so before judging the input.
    if (PLAN_GATED_TAGS.has(route.tag)) requireVoicePlan(request);
    // Like the plan, the key's scope is judged before the input.
    if (route.scope) requireScope(request, route.scope);
    checkFileSizes(route.files, raw as Record<string, unknown>);
    refuseNulCharacters(raw);
    const parsed = route.input.safeParse(raw);
    if (!parsed.success) throw badRequest(`Invalid request: ${formatIssues(parsed.error.issues, raw)}.`);
    // A loaded feature's handler is taken without an await: most requests hit loaded features.
    const handler = (this.handlers[name] as Handler<N> | undefined) ?? (await this.handlerFor(name, route.tag));
    if (!handler) throw notImplemented(route.summary);
    try {
      if (!READS_TOGETHER.has(name)) return await handler(request, parsed.data as never);
      // A call that reads the live site stores its reads whole or not at all: a failed one stores nothing.
      const reads = (await this.index()).reads;
      const answer = async () => handler(request, parsed.data as never);
      return reads ? await reads.together(answer) : await answer();
    } catch (error) {
      // A full disk is the service's condition, not a fault in its code: say so (507), as the hosted service would.
      throw isDiskFull(error) ? insufficientStorage(error) : error;
    }
  }

  /**
   * An open route (`auth: false`) called without a key: validated like any call, answered with
   * the public part only. Every other route needs a key.
   */
  async handlePublic<N extends RouteName>(name: N, raw: Record<string, unknown>): Promise<RouteOutput<N>> {
    const route = loadedRoute(name) ?? (await loadRoute(name));
    // Taken without an import once loaded: an import, even of a loaded module, costs more than the answer.
    const handler = route.auth === false ? (this.publicHandlers ?? (await this.loadPublicHandlers()))[name] : undefined;
    if (!handler) throw unauthorized('Authentication failed: no API key was sent.');
    refuseNulCharacters(raw);
    const parsed = route.input.safeParse(raw);
    if (!parsed.success) throw badRequest(`Invalid request: ${formatIssues(parsed.error.issues, raw)}.`);
    return handler(this, parsed.data as never);
  }

  private async loadPublicHandlers(): Promise<PublicHandlers> {
    this.publicHandlers = (await import('./features/system.js')).publicHandlers;
    return this.publicHandlers;
  }

  /** The route's handler, loading its feature module on first use. */
  private async handlerFor<N extends RouteName>(name: N, tag: RouteTag): Promise<Handler<N> | undefined> {
    if (!(name in this.handlers)) {
      const load = featureLoaders[tag];
      if (load) Object.assign(this.handlers, await load());
    }
    return this.handlers[name] as Handler<N> | undefined;
  }

  /** Loads every feature, so job processors of every kind are registered (workers, serve). */
  async loadAllFeatures(): Promise<void> {
    Object.assign(this.handlers, await loadAllFeatures());
  }

  /**
   * Stops the workers (their jobs go back to the queue) and closes the database(s). With no worker
   * running, the SQLite file is closed before this returns, as callers that remove the data dir
   * next expect.
   */
  close(): Promise<void> {
    const closeStores = () => {
      const closing = this.store.close();
      if (this.db.open) this.db.close();
      return closing;
    };
    const stopping = this.jobs.stop();
    return stopping ? stopping.then(closeStores) : closeStores();
  }
}

/**
 * One call's context. A class, not an object literal with a `signal` getter: V8 gives each such
 * literal an accessor pair allocated in the old generation, which holds the getter's closure, and
 * through it the request's objects, alive through every young-generation collection until a full
 * one. Under serve's load that made GC about a fifth of its time (scavenges of 10–40 ms promoting
 * some 1.4 KB a request); with a class, scavenges take a millisecond or two and promote nothing.
 */
class Call implements RequestContext {
  constructor(
    readonly engine: Engine,
    readonly user: Principal,
    readonly limits: PlanLimits,
    readonly baseUrl: string | undefined,
    private readonly signalSource: AbortSignal | (() => AbortSignal) | undefined,
    readonly onProgress: RequestContext['onProgress'],
  ) {}

  get signal(): AbortSignal | undefined {
    return typeof this.signalSource === 'function' ? this.signalSource() : this.signalSource;
  }
}

function mergeOverrides(...layers: (PlanOverrides | undefined)[]): PlanOverrides {
  const merged: PlanOverrides = {};
  for (const layer of layers) {
    for (const [plan, values] of Object.entries(layer ?? {})) {
      merged[plan as Plan] = { ...merged[plan as Plan], ...values };
    }
  }
  return merged;
}

/** In-process callers hand whole files over, so the streaming limit is checked here too. */
function checkFileSizes(files: Record<string, { maxBytes: number }> | undefined, raw: Record<string, unknown>): void {
  for (const [field, { maxBytes }] of Object.entries(files ?? {})) {
    const file = raw[field] as UploadedFile | undefined;
    if (file?.data && file.data.length > maxBytes) throw fileTooLarge(field, maxBytes);
  }
}
