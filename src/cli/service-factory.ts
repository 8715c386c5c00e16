import type { Service } from '../core/service.js';
import { openAtDataDir } from './data-dir.js';
import type { Settings } from './globals.js';
import type { IO } from './io.js';

/**
 * The one place that chooses an implementation: the embedded engine, or the remote client.
 * Commands get a Service and never ask which one it is. Both are imported lazily so a command
 * loads only what it uses.
 */
export interface ServiceTuning {
  maxRetries?: number;
  /** Local engine: run queued jobs in this process (a long-lived server), not in a detached worker. */
  inProcessJobs?: boolean;
}

export async function createService(settings: Settings, io: IO, tuning: ServiceTuning = {}): Promise<Service> {
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
  // A command exits right after a submit, so its queued jobs run in a detached `engine worker`; a
  // server runs them itself and stops them (releasing their leases) when it stops.
  const jobRunner = tuning.inProcessJobs ? { mode: 'in-process' as const } : { mode: 'spawn' as const };
  const service = await openAtDataDir(settings.dataDir, () => LocalService.open({ dataDir: settings.dataDir, store: settings.store, apiKey: settings.apiKey, jobRunner }));
  io.trace(`embedded engine at ${settings.dataDir}${settings.store.kind === 'postgres' ? ` on ${settings.store.description}` : ''}`);
  return service;
}
