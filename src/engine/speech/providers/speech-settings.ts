/**
 * Which upstream speech providers an engine may call, and with which key: resolved by the engine
 * (never from a caller: `serve` answers with its own configuration). Each setting comes from the
 * engine process's environment, else from the profile it was started with:
 *
 *   setting              environment                   profile (tubekit config set …)
 *   ElevenLabs key       TUBEKIT_ELEVENLABS_API_KEY    elevenlabs.api_key   (the file must be mode 0600)
 *   ElevenLabs address   TUBEKIT_ELEVENLABS_BASE_URL   elevenlabs.base_url  (default https://api.elevenlabs.io)
 *   MiniMax key          TUBEKIT_MINIMAX_API_KEY       minimax.api_key      (the file must be mode 0600)
 *   MiniMax address      TUBEKIT_MINIMAX_BASE_URL      minimax.base_url     (default https://api.minimax.io)
 *   time limit           TUBEKIT_ELEVENLABS_TIMEOUT    elevenlabs.timeout   seconds one request may take (default 180;
 *                        TUBEKIT_MINIMAX_TIMEOUT       minimax.timeout      likewise)
 *
 * A provider without a key is "not used": ElevenLabs answers 503 saying how to configure it, and
 * alt voices keep the engine's local stand-in.
 */
import { hostOf, isHttpUrl } from '../../upstream-url.js';
import { exposedKeyFile } from '../../exposed-key-file.js';

export const UPSTREAM_SPEECH_PROVIDERS = ['elevenlabs', 'minimax'] as const;
export type UpstreamSpeechProvider = (typeof UPSTREAM_SPEECH_PROVIDERS)[number];

export type SpeechSettingName = 'api_key' | 'base_url' | 'timeout';

/** Each provider's environment variables and profile keys. */
export const SPEECH_SETTINGS: Record<UpstreamSpeechProvider, Record<SpeechSettingName, { env: string; profile: string }>> = {
  elevenlabs: {
    api_key: { env: 'TUBEKIT_ELEVENLABS_API_KEY', profile: 'elevenlabs.api_key' },
    base_url: { env: 'TUBEKIT_ELEVENLABS_BASE_URL', profile: 'elevenlabs.base_url' },
    timeout: { env: 'TUBEKIT_ELEVENLABS_TIMEOUT', profile: 'elevenlabs.timeout' },
  },
  minimax: {
    api_key: { env: 'TUBEKIT_MINIMAX_API_KEY', profile: 'minimax.api_key' },
    base_url: { env: 'TUBEKIT_MINIMAX_BASE_URL', profile: 'minimax.base_url' },
    timeout: { env: 'TUBEKIT_MINIMAX_TIMEOUT', profile: 'minimax.timeout' },
  },
};

const DEFAULT_BASE_URLS: Record<UpstreamSpeechProvider, string> = {
  elevenlabs: 'https://api.elevenlabs.io',
  minimax: 'https://api.minimax.io',
};

const LABELS: Record<UpstreamSpeechProvider, string> = { elevenlabs: 'ElevenLabs', minimax: 'MiniMax' };

/** The profile's speech settings (keys as `elevenlabs.api_key`), as the CLI read them. */
export interface SpeechProfile {
  values: Record<string, string | undefined>;
  file?: string;
  /** The file's permission bits: a key is taken from it only when nobody else may read it. */
  mode?: number;
}

/** Where an engine finds its speech provider settings. */
export interface SpeechSettingsSource {
  env: NodeJS.ProcessEnv;
  profile?: () => SpeechProfile;
}

export interface UpstreamConfig {
  provider: UpstreamSpeechProvider;
  /** Without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  keySource: 'environment' | 'config file';
  /** One request's time limit. */
  timeoutMs: number;
}

/** Speech of a few thousand characters can take a minute or more at the provider. */
export const DEFAULT_UPSTREAM_TIMEOUT_SECONDS = 180;

export type UpstreamResolution =
  | { state: 'none'; fix: string }
  | { state: 'configured'; config: UpstreamConfig }
  | { state: 'invalid'; problem: string; fix: string };

export const providerLabel = (provider: UpstreamSpeechProvider) => LABELS[provider];

export function howToConfigure(provider: UpstreamSpeechProvider): string {
  const names = SPEECH_SETTINGS[provider];
  return `Set ${names.api_key.env} where the engine runs, or \`tubekit config set ${names.api_key.profile}\` (reads the key from a prompt or stdin).`;
}

export function resolveUpstream(source: SpeechSettingsSource, provider: UpstreamSpeechProvider): UpstreamResolution {
  const profile = source.profile?.() ?? { values: {} };
  const names = SPEECH_SETTINGS[provider];
  const pick = (name: SpeechSettingName) => {
    const fromEnv = source.env[names[name].env]?.trim();
    if (fromEnv) return { value: fromEnv, origin: names[name].env, fromFile: false };
    const fromProfile = profile.values[names[name].profile]?.trim();
    return fromProfile ? { value: fromProfile, origin: `${names[name].profile} in ${profile.file ?? 'the profile'}`, fromFile: true } : undefined;
  };
  const key = pick('api_key');
  if (!key) return { state: 'none', fix: howToConfigure(provider) };
  const exposed = key.fromFile ? exposedKeyFile(profile, LABELS[provider], names.api_key.env) : undefined;
  if (exposed) return { state: 'invalid', ...exposed };
  const base = pick('base_url');
  const baseUrl = (base?.value ?? DEFAULT_BASE_URLS[provider]).replace(/\/+$/, '');
  if (base && !isHttpUrl(baseUrl)) {
    return { state: 'invalid', problem: `The ${LABELS[provider]} base URL "${base.value}" (${base.origin}) is not an http(s) URL.`, fix: `Set it to the API's address, e.g. ${DEFAULT_BASE_URLS[provider]}.` };
  }
  const timeout = pick('timeout');
  const seconds = timeout ? Number(timeout.value) : DEFAULT_UPSTREAM_TIMEOUT_SECONDS;
  if (!(seconds > 0 && Number.isFinite(seconds))) {
    return { state: 'invalid', problem: `The ${LABELS[provider]} timeout "${timeout!.value}" (${timeout!.origin}) is not a positive number of seconds.`, fix: `Set it to seconds, e.g. ${DEFAULT_UPSTREAM_TIMEOUT_SECONDS}.` };
  }
  return {
    state: 'configured',
    config: { provider, baseUrl, apiKey: key.value, keySource: key.fromFile ? 'config file' : 'environment', timeoutMs: Math.round(seconds * 1000) },
  };
}

/** One line for `doctor`: host and whether a key is set, never the key. */
export function describeUpstream(config: UpstreamConfig): string {
  return `${LABELS[config.provider]} at ${hostOf(config.baseUrl)}, key set (${config.keySource})`;
}
