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
    const { key, user_id } = server.identity.createUserWithKey('starter', []);
    expect(server.authenticate(key)).toMatchObject({ userId: user_id, plan: 'starter' });
    expect(server.authenticate(key)).toBe(server.authenticate(key)); // remembered
    const cli = Engine.open({ dataDir: server.dataDir });
    cli.identity.revokeKey(key);
    cli.close();
    // The next request reaches a server on a later turn of its event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => server.authenticate(key)).toThrow(/API key/);
  });

  it('accepts a key it once refused as soon as it exists: an unknown key is not remembered past a change', async () => {
    const server = Engine.open({ dataDir: tempDataDir() });
    opened.push(server);
    const cli = Engine.open({ dataDir: server.dataDir });
    const { key } = cli.identity.createUserWithKey('starter', []);
    cli.identity.revokeKey(key);
    expect(() => server.authenticate(key)).toThrow(/API key/);
    const fresh = cli.identity.createUserWithKey('ultimate', []);
    cli.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.authenticate(fresh.key)).toMatchObject({ plan: 'ultimate' });
    expect(() => server.authenticate(key)).toThrow(/API key/);
  });

  it('refuses a key revoked through the same engine on its next use', () => {
    const engine = Engine.open({ dataDir: tempDataDir() });
    opened.push(engine);
    const { key } = engine.identity.createUserWithKey('professional', ['generations']);
    engine.authenticate(key);
    engine.identity.revokeKey(key);
    expect(() => engine.authenticate(key)).toThrow(/API key/);
  });
});
