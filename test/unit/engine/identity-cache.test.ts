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
  it('refuses a key revoked by another connection on its next use', () => {
    const server = Engine.open({ dataDir: tempDataDir() });
    opened.push(server);
    const { key, user_id } = server.identity.createUserWithKey('starter', []);
    expect(server.authenticate(key)).toMatchObject({ userId: user_id, plan: 'starter' });
    expect(server.authenticate(key)).toBe(server.authenticate(key)); // remembered
    const cli = Engine.open({ dataDir: server.dataDir });
    cli.identity.revokeKey(key);
    cli.close();
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
