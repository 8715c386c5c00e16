import type { Engine } from '../../../engine/engine.js';
import type { CliApp } from '../../app.js';
import { openAtDataDir } from '../../data-dir.js';

/** Engine administration always acts on the local data dir, whatever the remote settings. */
export async function withLocalEngine<T>(app: CliApp, work: (engine: Engine) => T | Promise<T>): Promise<T> {
  const { Engine } = await import('../../../engine/engine.js');
  const engine = openAtDataDir(app.settings.dataDir, () => Engine.open({ dataDir: app.settings.dataDir, platform: app.platformOptions }));
  try {
    return await work(engine);
  } finally {
    engine.close();
  }
}
