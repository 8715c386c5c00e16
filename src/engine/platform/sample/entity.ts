import type Database from 'better-sqlite3';

/** Parameters that fully determine a world. */
export interface WorldParams {
  seed: string;
  channels: number;
  /** Terminated channels (their own entity, independent of `channels`). */
  terminated: number;
  /** 'YYYY-MM-DD'. */
  referenceDate: string;
}

export interface GenerationContext {
  readonly db: Database.Database;
  readonly params: WorldParams;
  /** Day number of params.referenceDate. */
  readonly refDay: number;
  /** Values written to world_meta after generation (entities add their counts here). */
  readonly meta: Record<string, string | number>;
}

/**
 * One kind of world entity. Generation runs every module's createTables, then
 * generate (in list order, inside one transaction), then createIndexes. A
 * module draws its randomness from `streamSeed(seed, <its own key>)` so that
 * adding a module never changes what the others produce.
 *
 * Tables must be named `world_*`: regeneration drops every such table.
 */
export interface WorldEntity {
  readonly name: string;
  createTables(db: Database.Database): void;
  generate(ctx: GenerationContext): void;
  createIndexes(db: Database.Database): void;
}
