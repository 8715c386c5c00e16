import type { Service } from '../core/service.js';
import type { AnalysisSettingsSource } from '../engine/features/analysis/providers/provider-config.js';
import type { SpeechSettingsSource } from '../engine/speech/providers/speech-settings.js';
import { commandJobSettings, type CommandSettings } from '../engine/jobs/job-settings.js';
import { openAtDataDir } from './data-dir.js';
import { usageError } from '../core/client-errors.js';
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
  /** Local engine: where its analysis jobs find their vision model. */
  analysisSettings?: AnalysisSettingsSource;
  /** Local engine: where it finds the upstream speech providers' keys. */
  speechSettings?: SpeechSettingsSource;
}

export async function createService(settings: Settings, io: IO, tuning: ServiceTuning = {}): Promise<Service> {
  if (settings.mode === 'remote') {
    // The proxy is the embedded engine's way to the video site; the remote service reaches it on its own.
    if (settings.platform.proxy !== undefined) {
      throw usageError(`--proxy applies to the embedded engine's live platform; this command calls the remote service at ${settings.baseUrl}.`, 'Drop --proxy, or add --local to use the embedded engine.');
    }
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
  // A command exits right after a submit, so its queued jobs run in a detached `engine worker`
  // started with this command's settings; a server runs them itself and stops them (releasing
  // their leases) when it stops.
  const jobRunner = tuning.inProcessJobs ? { mode: 'in-process' as const } : spawnRunner(settings, io);
  const platform = { ...settings.platform, trace: (line: string) => io.trace(line) };
  const service = await openAtDataDir(settings.dataDir, () =>
    LocalService.open({ dataDir: settings.dataDir, store: settings.store, filesDir: settings.filesDir, apiKey: settings.apiKey, jobRunner, platform, analysisSettings: tuning.analysisSettings, speechSettings: tuning.speechSettings }),
  );
  io.trace(`embedded engine at ${settings.dataDir}${settings.store.kind === 'postgres' ? ` on ${settings.store.description}` : ''}`);
  return service;
}

/** What a command says beside its environment about how its jobs run; a worker reads its own the same way. */
export function jobCommandSettings(settings: Settings): CommandSettings {
  // The profile's own cookies file is read by the worker from the profile, like its other settings.
  return { profileName: settings.profileName, proxy: settings.platform.proxy, filesDir: settings.filesDir !== settings.dataDir ? settings.filesDir : undefined };
}

/** Jobs of this command run in a detached worker with its settings: its environment, profile and `--proxy`. */
function spawnRunner(settings: Settings, io: IO) {
  const command = jobCommandSettings(settings);
  return { mode: 'spawn' as const, settings: () => commandJobSettings(settings.dataDir, io.streams.env, command) };
}
