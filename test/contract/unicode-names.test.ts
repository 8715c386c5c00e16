/**
 * One case rule for names beyond ASCII on both stores, checked on a PostgreSQL database in a UTF-8
 * locale (where lower() and ILIKE fold more than ASCII) beside SQLite:
 * - folder names are the same when their name keys are (NFC, full case folding: "Café" = "CAFÉ",
 *   "Straße" = "STRASSE"), and only then: "İ" and "I" are two names, as the rule says, though a
 *   UTF-8 lower() makes both "i";
 * - the managed-network owner search ignores the case of ASCII letters only, as SQLite's LIKE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalService } from '../../src/engine/local-service.js';
import { openEngine } from '../../src/engine/open-engine.js';
import type { Engine } from '../../src/engine/engine.js';
import { checksSql } from '../../src/engine/features/checks/check-store.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { failure, tempDataDir } from '../support/engines.js';
import { createTestDatabase } from '../support/postgres.js';

describe.each(['sqlite', 'postgres in C.UTF-8'] as const)('names beyond ASCII on %s', (store) => {
  let engine: Engine;
  let service: LocalService;
  beforeAll(async () => {
    const location = store === 'sqlite' ? undefined : parseStoreLocation(await createTestDatabase({ unicodeLocale: true }));
    engine = await openEngine({ dataDir: tempDataDir(), store: location });
    service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
  }, 60_000);
  afterAll(() => engine?.close());

  const create = (name: string) => service.call('folders.create', { name });

  it('refuses a folder whose name key another has, and only then', async () => {
    for (const [first, second] of [
      ['Café', 'CAFÉ'],
      ['Straße', 'STRASSE'],
      ['Ωμέγας', 'ΩΜΈΓΑΣ'],
      ['Plain', 'PLAIN'],
    ]) {
      await create(first!);
      const error = await failure(create(second!));
      expect(error.status, `${first} / ${second}`).toBe(409);
    }
    // Different keys ('i̇' and 'i'), one UTF-8 lower() ('i'): the rule says two names.
    for (const name of ['I', 'İ', 'ǅx', 'Ǆy']) expect((await create(name)).folder.name).toBe(name);
    expect((await service.call('folders.list', {})).folders.map((folder) => folder.name)).toEqual(['Café', 'Straße', 'Ωμέγας', 'Plain', 'I', 'İ', 'ǅx', 'Ǆy']);
  });

  it('matches a network owner by name ignoring the case of ASCII letters only', async () => {
    await engine.store.run("INSERT INTO cms_owners (oid, name, type, industry) VALUES ('o1', 'Société ÉCOLE Media', 'mcn', 'media')");
    await engine.store.run(
      "INSERT INTO cms_verdicts (channel_id, status, oid, checked_at, source, name, subscribers, avg_views, language, category) VALUES ('UC1', 'managed', 'o1', 0, 'precheck', 'c', 10, 1, 'fr', 'x')",
    );
    const owners = async (pattern: string) =>
      (await checksSql.networks(engine.store, { pattern, min_channels: 1, limit: 10, sort: 'channels' })).map((row) => row.name);
    expect(await owners('%media%')).toEqual(['Société ÉCOLE Media']);
    expect(await owners('%SOCIÉTÉ%')).toEqual([]);
    expect(await owners('%Société%')).toEqual(['Société ÉCOLE Media']);
    expect(await owners('%école%')).toEqual([]);
  });
});
