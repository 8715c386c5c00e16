/**
 * A fleet's sample world in its store: the one `sample_world` row (its definition and clock; see
 * sample/shared-world.ts), where its changes are announced, and how `engine copy-store` makes the
 * row from a data dir's own world, so the world and its clock move to the fleet with the rest.
 */
import type Database from 'better-sqlite3';

/** Where a change of the fleet's world (a reseed, an advance, a copy) is announced. */
export const SHARED_WORLD_CHANNEL = 'tubekit_sample_world';

/**
 * The row of the data dir's world as a query of its SQLite file (one row, or none when it holds no
 * world): the keys of `world_meta` the world is made from, its clock, and its generation as the
 * index's edition.
 */
export function sharedWorldRowOfDataDir(db: Database.Database): string {
  const holdsWorld = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'world_meta'").get() !== undefined;
  if (!holdsWorld) {
    return "SELECT 1 AS id, '' AS seed, 0 AS channels, 0 AS terminated, '' AS reference_date, 0 AS generator_version, 0 AS advanced_ms, '' AS edition WHERE 0";
  }
  const key = (name: string) => `MAX(CASE WHEN key = '${name}' THEN value END)`;
  return `SELECT 1 AS id, seed, CAST(channels AS INTEGER) AS channels, CAST(COALESCE(terminated, 0) AS INTEGER) AS terminated, reference_date,
      CAST(generator_version AS INTEGER) AS generator_version, CAST(COALESCE(json_extract(clock, '$.advanced_ms'), 0) AS INTEGER) AS advanced_ms, edition
    FROM (SELECT ${key('seed')} AS seed, ${key('channel_count')} AS channels, ${key('terminated_count')} AS terminated, ${key('reference_date')} AS reference_date,
      ${key('generator_version')} AS generator_version, ${key('clock')} AS clock, ${key('generated_at')} AS edition FROM world_meta)
    WHERE seed IS NOT NULL`;
}
