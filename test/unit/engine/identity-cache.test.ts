/** Remembered keys never outlive a change: a revoke in this process or in another one takes effect at once. */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { tempDataDir } from '../../support/engines.js';

const opened: Engine[] = [];
afterEach(() => {
  for (const engine of opened.splice(0)) {
    const dir = engine.dataDir;
    engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('authentication of remembered keys', () => {
  it('refuses a key revoked by another connection on its next use', async () => {
    const server = Engine.open({ dataDir: tempDataDir() });
    opened.push(server);
    const { key, user_id } = (await server.identity.createUserWithKey('starter', []));
    expect((await server.authenticate(key))).toMatchObject({ userId: user_id, plan: 'starter' });
    expect((await server.authenticate(key))).toBe((await server.authenticate(key))); // remembered
    const cli = Engine.open({ dataDir: server.dataDir });
    (await cli.identity.revokeKey(key));
    cli.close();
    // The next request reaches a server on a later turn of its event loop.
    await new Promise((resolve) => setImmediate(resolve));
    await expect(server.authenticate(key)).rejects.toThrow(/API key/);
  });

  it('accepts a key it once refused as soon as it exists: an unknown key is not remembered past a change', async () => {
    const server = Engine.open({ dataDir: tempDataDir() });
    opened.push(server);
    const cli = Engine.open({ dataDir: server.dataDir });
    const { key } = (await cli.identity.createUserWithKey('starter', []));
    (await cli.identity.revokeKey(key));
    await expect(server.authenticate(key)).rejects.toThrow(/API key/);
    const fresh = (await cli.identity.createUserWithKey('ultimate', []));
    cli.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect((await server.authenticate(fresh.key))).toMatchObject({ plan: 'ultimate' });
    await expect(server.authenticate(key)).rejects.toThrow(/API key/);
  });

  it('refuses a key revoked through the same engine on its next use', async () => {
    const engine = Engine.open({ dataDir: tempDataDir() });
    opened.push(engine);
    const { key } = (await engine.identity.createUserWithKey('professional', ['generations']));
    (await engine.authenticate(key));
    (await engine.identity.revokeKey(key));
    await expect(engine.authenticate(key)).rejects.toThrow(/API key/);
  });
});
