/**
 * Which vision model analyses videos, resolved by the engine when a job runs (never from a caller:
 * `serve` answers with its own configuration). Each setting comes from the engine process's
 * environment, else from the profile it was started with, else a default:
 *
 *   setting    environment                 profile (tubekit config set …)
 *   provider   TUBEKIT_ANALYSIS_PROVIDER   analysis.provider    openai-compatible | gemini
 *   base URL   TUBEKIT_ANALYSIS_BASE_URL   analysis.base_url
 *   model      TUBEKIT_ANALYSIS_MODEL      analysis.model
 *   key        TUBEKIT_ANALYSIS_API_KEY    analysis.api_key     (the file must be private: mode 0600)
 *   timeout    TUBEKIT_ANALYSIS_TIMEOUT    analysis.timeout     seconds one model request may take
 *
 * No provider: the sample platform keeps its stand-in analyst; the live platform fails the job
 * saying how to configure one. `describeAnalysisProvider` is the same resolution for a health check.
 */
import { hostOf, isHttpUrl } from '../../../upstream-url.js';
import { exposedKeyFile } from '../../../exposed-key-file.js';

export const ANALYSIS_PROVIDERS = ['openai-compatible', 'gemini'] as const;
export type AnalysisProviderName = (typeof ANALYSIS_PROVIDERS)[number];

export type AnalysisSettingName = 'provider' | 'base_url' | 'model' | 'api_key' | 'timeout';

/** Each setting's environment variable and profile key. */
export const ANALYSIS_SETTINGS: Record<AnalysisSettingName, { env: string; profile: string }> = {
  provider: { env: 'TUBEKIT_ANALYSIS_PROVIDER', profile: 'analysis.provider' },
  base_url: { env: 'TUBEKIT_ANALYSIS_BASE_URL', profile: 'analysis.base_url' },
  model: { env: 'TUBEKIT_ANALYSIS_MODEL', profile: 'analysis.model' },
  api_key: { env: 'TUBEKIT_ANALYSIS_API_KEY', profile: 'analysis.api_key' },
  timeout: { env: 'TUBEKIT_ANALYSIS_TIMEOUT', profile: 'analysis.timeout' },
};

const DEFAULT_BASE_URLS: Record<AnalysisProviderName, string> = {
  'openai-compatible': 'https://api.openai.com/v1',
  gemini: 'https://generativelanguage.googleapis.com',
};

/** Models used when none is set — only at the provider's own default address. */
const DEFAULT_MODELS: Record<AnalysisProviderName, string> = {
  'openai-compatible': 'gpt-4o-mini',
  gemini: 'gemini-2.5-flash',
};

/** Local models on a CPU can take minutes over a dozen frames. */
export const DEFAULT_MODEL_TIMEOUT_SECONDS = 300;

/** The profile's analysis settings, as the CLI read them from its config file. */
export interface AnalysisProfile {
  values: Partial<Record<AnalysisSettingName, string>>;
  /** Where they were read from, for messages. */
  file?: string;
  /** That file's permission bits: a key is taken from it only when nobody else may read it. */
  mode?: number;
}

/** Where an engine finds its analysis settings. */
export interface AnalysisSettingsSource {
  /** The engine process's environment. */
  env: NodeJS.ProcessEnv;
  /** The profile the engine was started with, read again at each resolution (absent: none). */
  profile?: () => AnalysisProfile;
}

export interface VisionProviderConfig {
  provider: AnalysisProviderName;
  /** Without a trailing slash. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

export type AnalysisProviderResolution =
  | { state: 'none' }
  | { state: 'configured'; config: VisionProviderConfig; keySource: KeySource }
  | { state: 'invalid'; problem: string; fix: string };

export type KeySource = 'environment' | 'config file' | null;

/** The configuration in words a health check can print (never the key itself). */
export interface AnalysisProviderDescription {
  state: 'none' | 'configured' | 'invalid';
  provider: string | null;
  base_url_host: string | null;
  model: string | null;
  key_present: boolean;
  key_source: KeySource;
  /** One line: what is configured, or what is wrong. */
  message: string;
  /** How to fix it (invalid), or how to configure one (none). */
  fix?: string;
}

export const HOW_TO_CONFIGURE =
  'Configure a vision model where the engine runs: `tubekit config set analysis.provider openai-compatible` (or gemini) with ' +
  '`analysis.base_url`, `analysis.model` and the key (`tubekit config set analysis.api_key` reads it from a prompt or stdin), ' +
  'or the environment variables TUBEKIT_ANALYSIS_PROVIDER, TUBEKIT_ANALYSIS_BASE_URL, TUBEKIT_ANALYSIS_MODEL and TUBEKIT_ANALYSIS_API_KEY.';

interface Picked {
  value: string;
  from: 'environment' | 'profile';
}

function pick(source: AnalysisSettingsSource, profile: AnalysisProfile, name: AnalysisSettingName): Picked | undefined {
  const fromEnv = source.env[ANALYSIS_SETTINGS[name].env]?.trim();
  if (fromEnv) return { value: fromEnv, from: 'environment' };
  const fromProfile = profile.values[name]?.trim();
  return fromProfile ? { value: fromProfile, from: 'profile' } : undefined;
}

/** Names where a setting came from, so a bad value can be fixed where it was set. */
const origin = (name: AnalysisSettingName, picked: Picked, profile: AnalysisProfile) =>
  picked.from === 'environment' ? ANALYSIS_SETTINGS[name].env : `${ANALYSIS_SETTINGS[name].profile} in ${profile.file ?? 'the profile'}`;

export function resolveAnalysisProvider(source: AnalysisSettingsSource): AnalysisProviderResolution {
  const profile = source.profile?.() ?? { values: {} };
  const provider = pick(source, profile, 'provider');
  if (!provider) return { state: 'none' };
  const invalid = (problem: string, fix: string): AnalysisProviderResolution => ({ state: 'invalid', problem, fix });
  const name = provider.value.toLowerCase() as AnalysisProviderName;
  if (!ANALYSIS_PROVIDERS.includes(name)) {
    return invalid(`The vision model provider "${provider.value}" (${origin('provider', provider, profile)}) is not one tubekit knows.`, `Use one of: ${ANALYSIS_PROVIDERS.join(', ')}.`);
  }

  const baseUrlSetting = pick(source, profile, 'base_url');
  const baseUrl = (baseUrlSetting?.value ?? DEFAULT_BASE_URLS[name]).replace(/\/+$/, '');
  if (baseUrlSetting && !isHttpUrl(baseUrl)) {
    return invalid(`The vision model's base URL "${baseUrlSetting.value}" (${origin('base_url', baseUrlSetting, profile)}) is not an http(s) URL.`, `Set it to the API's address, e.g. ${DEFAULT_BASE_URLS[name]}.`);
  }
  const atDefaultAddress = baseUrl === DEFAULT_BASE_URLS[name];

  const modelSetting = pick(source, profile, 'model');
  if (!modelSetting && !atDefaultAddress) {
    return invalid(`No vision model is named for ${name} at ${hostOf(baseUrl)}.`, `Name the model that server runs: \`tubekit config set analysis.model <model>\` or TUBEKIT_ANALYSIS_MODEL (e.g. qwen2.5vl:7b for Ollama).`);
  }
  const model = modelSetting?.value ?? DEFAULT_MODELS[name];

  const key = resolveKey(source, profile);
  if ('problem' in key) return invalid(key.problem, key.fix);
  // A local server (Ollama, vLLM, LM Studio) may need no key; the hosted APIs always do.
  if (!key.value && (name === 'gemini' || atDefaultAddress)) {
    return invalid(`The ${name} vision model at ${hostOf(baseUrl)} needs an API key, and none is set.`, 'Set TUBEKIT_ANALYSIS_API_KEY where the engine runs, or `tubekit config set analysis.api_key` (reads it from a prompt or stdin).');
  }

  const timeoutSetting = pick(source, profile, 'timeout');
  const timeoutSeconds = timeoutSetting ? Number(timeoutSetting.value) : DEFAULT_MODEL_TIMEOUT_SECONDS;
  if (timeoutSetting && !(timeoutSeconds > 0 && Number.isFinite(timeoutSeconds))) {
    return invalid(`The vision model timeout "${timeoutSetting.value}" (${origin('timeout', timeoutSetting, profile)}) is not a positive number of seconds.`, `Set it to seconds, e.g. ${DEFAULT_MODEL_TIMEOUT_SECONDS}.`);
  }

  return {
    state: 'configured',
    config: { provider: name, baseUrl, model, ...(key.value ? { apiKey: key.value } : {}), timeoutMs: Math.round(timeoutSeconds * 1000) },
    keySource: key.source,
  };
}

function resolveKey(source: AnalysisSettingsSource, profile: AnalysisProfile): { value?: string; source: KeySource } | { problem: string; fix: string } {
  const picked = pick(source, profile, 'api_key');
  if (!picked) return { source: null };
  if (picked.from === 'environment') return { value: picked.value, source: 'environment' };
  const exposed = exposedKeyFile(profile, "vision model's", 'TUBEKIT_ANALYSIS_API_KEY');
  if (exposed) return exposed;
  return { value: picked.value, source: 'config file' };
}

export function describeAnalysisProvider(source: AnalysisSettingsSource): AnalysisProviderDescription {
  const resolution = resolveAnalysisProvider(source);
  const profile = source.profile?.() ?? { values: {} };
  if (resolution.state === 'none') {
    return {
      state: 'none',
      provider: null,
      base_url_host: null,
      model: null,
      key_present: false,
      key_source: null,
      message: 'No vision model is configured (the sample platform answers with its stand-in analyst; the live platform cannot analyse videos).',
      fix: HOW_TO_CONFIGURE,
    };
  }
  if (resolution.state === 'invalid') {
    const baseUrl = pick(source, profile, 'base_url')?.value;
    return {
      state: 'invalid',
      provider: pick(source, profile, 'provider')?.value ?? null,
      base_url_host: baseUrl && isHttpUrl(baseUrl) ? hostOf(baseUrl) : null,
      model: pick(source, profile, 'model')?.value ?? null,
      key_present: pick(source, profile, 'api_key') !== undefined,
      key_source: null,
      message: resolution.problem,
      fix: resolution.fix,
    };
  }
  const { config, keySource } = resolution;
  return {
    state: 'configured',
    provider: config.provider,
    base_url_host: hostOf(config.baseUrl),
    model: config.model,
    key_present: config.apiKey !== undefined,
    key_source: keySource,
    message: `${providerLabel(config)}, key ${config.apiKey ? `set (${keySource})` : 'not set'}`,
  };
}

/** "gemini at generativelanguage.googleapis.com, model gemini-2.5-flash": how errors name the provider. */
export function providerLabel(config: Pick<VisionProviderConfig, 'provider' | 'baseUrl' | 'model'>): string {
  return `${config.provider} at ${hostOf(config.baseUrl)}, model ${config.model}`;
}
