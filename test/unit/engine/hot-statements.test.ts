import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { preparedFor } from '../../../src/engine/store/prepared.js';
import { tempDataDir } from '../../support/engines.js';

describe('statements on the request path', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function openEngine(): Engine {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    return Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  }

  it('are prepared once per connection and reused by every later request', async () => {
    const engine = openEngine();
    const { key } = (await engine.identity.createUserWithKey('ultimate', []));
    const user = (await engine.authenticate(key));
    const { folder } = await engine.handle('folders.create', { name: 'Once' }, user);
    const calls = async () => {
      await engine.handle('folders.list', {}, (await engine.authenticate(key)));
      await engine.handle('health', {}, (await engine.authenticate(key)));
      await engine.handle('folders.rename', { id: folder.id, name: `Renamed ${Math.random()}` }, user);
    };
    await calls(); // the first use prepares
    const prepare = vi.spyOn(engine.db, 'prepare');
    for (let round = 0; round < 5; round += 1) await calls();
    expect(prepare).not.toHaveBeenCalled();
    prepare.mockRestore();
    engine.close();
  });

  it('preparedFor builds a set per connection, once', () => {
    const build = vi.fn((db: Engine['db']) => db.prepare('SELECT 1 AS one'));
    const statements = preparedFor(build);
    const first = openEngine();
    const second = openEngine();
    expect(statements(first.db)).toBe(statements(first.db));
    expect(statements(second.db)).not.toBe(statements(first.db));
    expect(build).toHaveBeenCalledTimes(2);
    first.close();
    second.close();
  });
});
