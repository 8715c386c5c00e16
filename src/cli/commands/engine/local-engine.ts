import type { Engine } from '../../../engine/engine.js';
import type { CliApp } from '../../app.js';
import { openAtDataDir } from '../../data-dir.js';

/** Engine administration always acts on the local data dir, whatever the remote settings. */
export async function withLocalEngine<T>(app: CliApp, work: (engine: Engine) => T | Promise<T>): Promise<T> {
  const { openEngine } = await import('../../../engine/open-engine.js');
  const engine = await openAtDataDir(app.settings.dataDir, () => openEngine({ dataDir: app.settings.dataDir, store: app.settings.store, filesDir: app.settings.filesDir, platform: app.platformOptions }));
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}
