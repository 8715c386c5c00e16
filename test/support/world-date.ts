/**
 * The reference date every test and benchmark world is generated for, so the suite is the same
 * suite on any calendar day. `TUBEKIT_WORLD_DATE` carries it to engines and spawned binaries alike;
 * `scripts/check-world-dates.mjs` runs the sample world's suites under other dates to prove no test
 * depends on this one.
 */
export const TEST_WORLD_DATE = '2026-11-20';

/** The date in force for this run: the date check's override, else the pinned one. */
export function testWorldDate(env: NodeJS.ProcessEnv = process.env): string {
  return env.TUBEKIT_WORLD_DATE || TEST_WORLD_DATE;
}

/** Which engine variants a suite runs in: all, or only the in-process engine on SQLite (the date check). */
export function onlyEmbeddedSqlite(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TUBEKIT_TEST_VARIANTS === 'embedded-sqlite';
}
