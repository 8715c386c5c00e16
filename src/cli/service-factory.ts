import type { Service } from '../core/service.js';
import { openAtDataDir } from './data-dir.js';
import type { Settings } from './globals.js';
import type { IO } from './io.js';

/**
 * The one place that chooses an implementation: the embedded engine, or the remote client.
 * Commands get a Service and never ask which one it is. Both are imported lazily so a command
 * loads only what it uses.
 */
export async function createService(settings: Settings, io: IO, tuning: { maxRetries?: number } = {}): Promise<Service> {
  if (settings.mode === 'remote') {
    const { RemoteService } = await import('../remote/remote-service.js');
    return new RemoteService({
      baseUrl: settings.baseUrl!,
      apiKey: settings.apiKey,
      altProviderName: settings.altProviderName,
      timeoutMs: settings.timeoutMs,
      maxRetries: tuning.maxRetries,
      trace: (line) => io.trace(line),
    });
  }
  const { LocalService } = await import('../engine/local-service.js');
  // The CLI exits right after a submit, so queued jobs run in a detached `engine worker`.
  const service = openAtDataDir(settings.dataDir, () => LocalService.open({ dataDir: settings.dataDir, apiKey: settings.apiKey, jobRunner: { mode: 'spawn' } }));
  io.trace(`embedded engine at ${settings.dataDir}`);
  return service;
}
