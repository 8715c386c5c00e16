/**
 * The sample world on a fleet's store (PostgreSQL). The world is derived data: its tables are a
 * pure function of its definition (seed, channel count, terminated count, reference date,
 * generator version) and of the time advanced. So the fleet shares only those, in one row
 * (`sample_world`, Postgres migration "the sample world's definition and clock, shared by the fleet"), and every server keeps its own copy of the tables in its
 * data dir, brought to the row: generated when the definition differs, advanced to the row's clock
 * when behind (advancing in steps leaves exactly the rows one advance would).
 *
 * - Before every read of the world the engine asks `opened()`: one read of the row (a primary-key
 *   lookup), so an answer never comes from a world older than the last reseed or advance committed
 *   anywhere, even when its notification was missed. A notification (`SHARED_WORLD_CHANNEL`) makes
 *   a server catch up at once, in the background, so the work of moving its copy is seldom paid
 *   by a request.
 * - `reseed` and `advance` change the row in one transaction under the `sample-world` lock, with
 *   their own copy brought to the new row before the commit: two advances at once add up, and the
 *   advancing server's report covers exactly its own span.
 * - The row's edition names the index the world seeds: a reseed makes a new one, the same for
 *   every server (the local copy's `generated_at` is its own).
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { ServiceError } from '../../../core/errors.js';
import type { Executor, Store, Transaction } from '../../store/store.js';
import { SHARED_WORLD_CHANNEL } from '../factory/shared-world-row.js';
import type { AdvanceReport, WorldSettings } from '../simulation.js';
import { generationDate, normalizeOptions, readWorldMeta, worldMatches, WORLD_GENERATOR_VERSION } from './generate.js';
import type { OpenedSampleWorld } from './open.js';
import { sampleIndexSeed } from './index-seed.js';
import { SampleWorld } from './sample-world.js';
import { CLOCK_META_KEY, parseClock } from './world-clock.js';

/** Serialises the row's writers across the fleet. */
const WORLD_LOCK = 'sample-world';

export interface SharedWorldRow {
  seed: string;
  channels: number;
  terminated: number;
  reference_date: string;
  generator_version: number;
  advanced_ms: number;
  edition: string;
}

const ROW_COLUMNS = 'seed, channels, terminated, reference_date, generator_version, advanced_ms, edition';

const rowValues = (row: SharedWorldRow) => [row.seed, row.channels, row.terminated, row.reference_date, row.generator_version, row.advanced_ms, row.edition];

const readRow = (on: Executor) => on.get<SharedWorldRow>(`SELECT ${ROW_COLUMNS} FROM sample_world WHERE id = 1`);

/** A new edition of the index: when (for people reading it) and a random part (two reseeds in one millisecond differ). */
const newEdition = () => `${new Date().toISOString()} ${randomUUID().slice(0, 8)}`;

export class SharedSampleWorld {
  /** The local copy and the row it was brought to. */
  private local?: { edition: string; advanced: number; opened: OpenedSampleWorld };
  /** One change of the local copy at a time in this process (a check, a reseed, an advance). */
  private tail: Promise<unknown> = Promise.resolve();
  /** A check queued and not yet started: callers arriving meanwhile share it. */
  private queuedCheck?: Promise<OpenedSampleWorld>;

  private constructor(
    private readonly db: Database.Database,
    private readonly store: Store,
    /** The data dir's own world parameters, for a fleet that has no world yet. */
    private readonly initial: WorldSettings,
  ) {}

  static open(db: Database.Database, store: Store, initial: WorldSettings): SharedSampleWorld {
    const world = new SharedSampleWorld(db, store, initial);
    // Another server reseeded or advanced (or the notifications' connection came back): catch up now.
    // Not waited for: answers never depend on it (the row is read before every read of the world).
    store
      .listen(SHARED_WORLD_CHANNEL, () => {
        world.opened().catch(() => undefined);
      })
      .catch(() => undefined);
    return world;
  }

  /**
   * The world as the fleet's row says now: the row read (once per call, shared by calls arriving
   * while it waits its turn) and the local copy brought to it.
   */
  opened(): Promise<OpenedSampleWorld> {
    if (this.queuedCheck) return this.queuedCheck;
    const check: Promise<OpenedSampleWorld> = this.exclusive(async () => {
      if (this.queuedCheck === check) this.queuedCheck = undefined;
      return this.bringTo(await this.currentRow());
    });
    this.queuedCheck = check;
    return check;
  }

  /** Rebuilds the fleet's world with new parameters (`tubekit engine seed`), its clock at the start. */
  async reseed(settings: WorldSettings): Promise<OpenedSampleWorld> {
    const want = normalizeOptions(settings);
    const row: SharedWorldRow = {
      seed: want.seed,
      channels: want.channels,
      terminated: want.terminated,
      reference_date: generationDate(settings),
      generator_version: WORLD_GENERATOR_VERSION,
      advanced_ms: 0,
      edition: newEdition(),
    };
    const opened = await this.exclusive(() =>
      this.store.transaction(async (tx) => {
        await tx.run(
          `INSERT INTO sample_world (id, ${ROW_COLUMNS}) VALUES (1, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET seed = excluded.seed, channels = excluded.channels, terminated = excluded.terminated,
             reference_date = excluded.reference_date, generator_version = excluded.generator_version,
             advanced_ms = excluded.advanced_ms, edition = excluded.edition`,
          rowValues(row),
        );
        // Generated before the commit: a failure leaves the fleet's world as it was.
        return this.bringTo(row);
      }, { locks: [WORLD_LOCK] }),
    );
    await this.announce();
    return opened;
  }

  /**
   * Moves the fleet's world by `ms` (1 minute to 366 days): the report covers exactly this span.
   * `within` runs in the same transaction over the moved world (the events the advance caused).
   */
  async advance(ms: number, within?: (tx: Transaction, world: SampleWorld, moved: AdvanceReport) => Promise<void>): Promise<AdvanceReport> {
    const report = await this.exclusive(async () => {
      await this.currentRow();
      return this.store.transaction(async (tx) => {
        const row = (await readRow(tx))!;
        const opened = this.bringTo(this.checkedVersion(row));
        // Moved (and `ms` judged) before the row: a refused span changes nothing anywhere.
        const moved = opened.platform.advance(ms);
        // Until the row says so too (a failed or retried transaction), the copy is ahead of it: the
        // next look finds that and builds it again.
        this.local = undefined;
        const advanced = row.advanced_ms + ms;
        await tx.run('UPDATE sample_world SET advanced_ms = ? WHERE id = 1', [advanced]);
        await within?.(tx, opened.platform, moved);
        this.local = { edition: row.edition, advanced, opened };
        return moved;
      }, { locks: [WORLD_LOCK] });
    });
    await this.announce();
    return report;
  }

  private async announce(): Promise<void> {
    // Committed already; a server that misses this still reads the row before its next read of the world.
    await this.store.notify(SHARED_WORLD_CHANNEL, '').catch(() => undefined);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The row, made from this data dir's world when the fleet has none yet, and brought to this generator's version. */
  private async currentRow(): Promise<SharedWorldRow> {
    let row = await readRow(this.store);
    if (!row) {
      await this.store.run(
        `INSERT INTO sample_world (id, ${ROW_COLUMNS}) VALUES (1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        rowValues(this.firstRow()),
      );
      row = (await readRow(this.store))!;
    }
    if (row.generator_version < WORLD_GENERATOR_VERSION) {
      // A newer tubekit generates another world from the same definition: a new edition of it.
      await this.store.run('UPDATE sample_world SET generator_version = ?, edition = ? WHERE id = 1 AND generator_version < ?', [
        WORLD_GENERATOR_VERSION,
        newEdition(),
        WORLD_GENERATOR_VERSION,
      ]);
      row = (await readRow(this.store))!;
    }
    return this.checkedVersion(row);
  }

  private checkedVersion(row: SharedWorldRow): SharedWorldRow {
    if (row.generator_version > WORLD_GENERATOR_VERSION) {
      throw new ServiceError({
        status: 409,
        code: 'conflict',
        message: `The fleet's sample world is made by a newer tubekit (world generator version ${row.generator_version}; this one makes ${WORLD_GENERATOR_VERSION}).`,
        hint: 'Run the same tubekit version on every server of the fleet.',
      });
    }
    return row;
  }

  /** The fleet's first row: this data dir's world when it has the parameters it keeps (so `copy-store` and a first server keep their world and clock), else a new one. */
  private firstRow(): SharedWorldRow {
    const want = normalizeOptions(this.initial);
    const meta = readWorldMeta(this.db);
    const base = { seed: want.seed, channels: want.channels, terminated: want.terminated };
    if (meta && worldMatches(meta, want)) {
      return { ...base, reference_date: meta.reference_date!, generator_version: WORLD_GENERATOR_VERSION, advanced_ms: parseClock(meta[CLOCK_META_KEY]).advanced_ms, edition: meta.generated_at! };
    }
    return { ...base, reference_date: generationDate(this.initial), generator_version: WORLD_GENERATOR_VERSION, advanced_ms: 0, edition: newEdition() };
  }

  /**
   * Brings the data dir's copy to the row (synchronously: nothing of this process runs meanwhile;
   * an IMMEDIATE transaction keeps other processes on the same data dir out): regenerated when its
   * definition differs or its clock is past the row's, then advanced to the row's clock.
   */
  private bringTo(row: SharedWorldRow): OpenedSampleWorld {
    const local = this.local;
    if (local && local.edition === row.edition && local.advanced === row.advanced_ms) return local.opened;
    const settings = { seed: row.seed, channels: row.channels, terminated: row.terminated, referenceDate: row.reference_date };
    const bring = this.db.transaction(() => {
      const meta = readWorldMeta(this.db);
      const matches = worldMatches(meta, normalizeOptions(settings)) && parseClock(meta![CLOCK_META_KEY]).advanced_ms <= row.advanced_ms;
      const rebuilt = !matches;
      if (rebuilt) SampleWorld.regenerate(this.db, settings);
      // The same instance while the world is the same one (its caches and the callers holding it stay good).
      const world = !rebuilt && local && local.edition === row.edition ? local.opened.platform : new SampleWorld(this.db);
      world.advanceTo(row.advanced_ms);
      return world;
    });
    const world = this.db.inTransaction ? bring() : bring.immediate();
    const opened = local && local.opened.platform === world ? local.opened : { platform: world, seed: sampleIndexSeed(world, row.edition) };
    this.local = { edition: row.edition, advanced: row.advanced_ms, opened };
    return opened;
  }
}
