import { defineConfig } from 'vitest/config';
import { testWorldDate } from './test/support/world-date.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every world of the run (engines in-process and spawned binaries) is generated for one pinned day.
    env: { TUBEKIT_WORLD_DATE: testWorldDate() },
    // One PostgreSQL server for the run, for the suites on the fleet store (test/support/postgres.ts).
    globalSetup: ['./test/support/postgres-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
