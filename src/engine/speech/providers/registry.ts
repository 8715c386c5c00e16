/**
 * The one place that decides which implementation speaks for each provider, from the engine's
 * speech settings: stealth is offline (eSpeak NG, and Piper voices); elevenlabs is ElevenLabs with a key, else a 503;
 * alt is MiniMax with a key, else the local stand-in. Kept per engine while its settings hold, so
 * a provider's state (the ElevenLabs catalog) survives between calls.
 */
import type { Provider } from '../../../core/schemas/voices.js';
import type { EngineContext } from '../../context.js';
import { localAltProvider } from '../../features/voices/alt-provider.js';
import { elevenLabsProvider } from './elevenlabs.js';
import { stealthProvider } from './espeak-provider.js';
import { minimaxProvider } from './minimax.js';
import { providerLabel, resolveUpstream, type UpstreamResolution } from './speech-settings.js';
import type { SpeechProvider } from './speech-provider.js';
import { unconfiguredProvider } from './unconfigured.js';

export type SpeechProviders = Record<Provider, SpeechProvider>;

const chosen = new WeakMap<EngineContext, { key: string; providers: SpeechProviders }>();

export function speechProviders(engine: EngineContext): SpeechProviders {
  const elevenlabs = resolveUpstream(engine.speechSettings, 'elevenlabs');
  const minimax = resolveUpstream(engine.speechSettings, 'minimax');
  const key = JSON.stringify([elevenlabs, minimax]);
  const known = chosen.get(engine);
  if (known?.key === key) return known.providers;
  const options = { retryPauseMs: engine.jobs.timing.modelRetryMs };
  const providers: SpeechProviders = {
    stealth: stealthProvider(engine.filesDir),
    elevenlabs: upstreamOr(elevenlabs, 'elevenlabs', (config) => elevenLabsProvider(config, options)),
    alt: minimax.state === 'none' ? localAltProvider(engine) : upstreamOr(minimax, 'minimax', (config) => minimaxProvider(config, options)),
  };
  chosen.set(engine, { key, providers });
  return providers;
}

export const speechProvider = (engine: EngineContext, provider: Provider): SpeechProvider => speechProviders(engine)[provider];

function upstreamOr(
  resolution: UpstreamResolution,
  name: 'elevenlabs' | 'minimax',
  make: (config: Extract<UpstreamResolution, { state: 'configured' }>['config']) => SpeechProvider,
): SpeechProvider {
  if (resolution.state === 'configured') return make(resolution.config);
  const problem = resolution.state === 'invalid' ? resolution.problem : `${providerLabel(name)} is not configured on this engine (no API key).`;
  return unconfiguredProvider(providerLabel(name), problem, resolution.fix);
}
