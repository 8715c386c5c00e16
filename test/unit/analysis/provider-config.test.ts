/**
 * The vision model's configuration: each setting from the engine's environment, else its profile,
 * else a default; what is missing or wrong said with where it was set; the key taken from the
 * config file only when that file is private; a description for health checks that never holds it.
 */
import { describe, expect, it } from 'vitest';
import { describeAnalysisProvider, resolveAnalysisProvider, type AnalysisProfile } from '../../../src/engine/features/analysis/providers/provider-config.js';

const KEY = 'sk-test-0123456789abcdefghij';
const profile = (values: AnalysisProfile['values'], mode = 0o100600): (() => AnalysisProfile) => () => ({ values, file: '/home/me/.config/tubekit/config.json', mode });

describe('resolveAnalysisProvider', () => {
  it('has no provider until one is set', () => {
    expect(resolveAnalysisProvider({ env: {} })).toEqual({ state: 'none' });
    expect(resolveAnalysisProvider({ env: { TUBEKIT_ANALYSIS_PROVIDER: '  ' }, profile: profile({}) })).toEqual({ state: 'none' });
  });

  it('fills the provider\'s address and model at its own default address', () => {
    expect(resolveAnalysisProvider({ env: { TUBEKIT_ANALYSIS_PROVIDER: 'gemini', TUBEKIT_ANALYSIS_API_KEY: KEY } })).toEqual({
      state: 'configured',
      keySource: 'environment',
      config: { provider: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', model: 'gemini-2.5-flash', apiKey: KEY, timeoutMs: 300_000 },
    });
    expect(resolveAnalysisProvider({ env: { TUBEKIT_ANALYSIS_PROVIDER: 'OpenAI-Compatible', TUBEKIT_ANALYSIS_API_KEY: KEY } })).toMatchObject({
      config: { provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
    });
  });

  it('takes each setting from the environment first, then the profile', () => {
    const resolved = resolveAnalysisProvider({
      env: { TUBEKIT_ANALYSIS_MODEL: 'qwen2.5vl:7b', TUBEKIT_ANALYSIS_TIMEOUT: '900' },
      profile: profile({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1/', model: 'llava', timeout: '10' }),
    });
    expect(resolved).toEqual({
      state: 'configured',
      keySource: null,
      config: { provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5vl:7b', timeoutMs: 900_000 },
    });
  });

  it('takes the key from a private config file, and refuses one others may read', () => {
    const values = { provider: 'gemini', api_key: KEY };
    expect(resolveAnalysisProvider({ env: {}, profile: profile(values) })).toMatchObject({ state: 'configured', keySource: 'config file', config: { apiKey: KEY } });
    const shared = resolveAnalysisProvider({ env: {}, profile: profile(values, 0o100644) });
    expect(shared).toEqual({
      state: 'invalid',
      problem: "The vision model's key is in /home/me/.config/tubekit/config.json, which others may read (mode 0644); it is not used.",
      fix: 'Make the file private (chmod 600 /home/me/.config/tubekit/config.json) and consider replacing the key, or set TUBEKIT_ANALYSIS_API_KEY instead.',
    });
    // The environment's key wins and needs no file.
    expect(resolveAnalysisProvider({ env: { TUBEKIT_ANALYSIS_API_KEY: 'from-env' }, profile: profile(values, 0o100644) })).toMatchObject({ state: 'configured', keySource: 'environment', config: { apiKey: 'from-env' } });
  });

  it('says what is wrong, and where it was set', () => {
    const problem = (env: NodeJS.ProcessEnv, values: AnalysisProfile['values'] = {}) => {
      const resolved = resolveAnalysisProvider({ env, profile: profile(values) });
      if (resolved.state !== 'invalid') throw new Error(`expected invalid, got ${resolved.state}`);
      return `${resolved.problem} ${resolved.fix}`;
    };
    expect(problem({ TUBEKIT_ANALYSIS_PROVIDER: 'claude' })).toMatch(/"claude" \(TUBEKIT_ANALYSIS_PROVIDER\) is not one tubekit knows\. Use one of: openai-compatible, gemini\./);
    expect(problem({}, { provider: 'gemini', base_url: 'ftp://x' })).toMatch(/"ftp:\/\/x" \(analysis\.base_url in \/home\/me\/\.config\/tubekit\/config\.json\) is not an http\(s\) URL/);
    expect(problem({ TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: 'https://openrouter.ai/api/v1' })).toMatch(/No vision model is named for openai-compatible at openrouter\.ai\. Name the model/);
    expect(problem({ TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible' })).toMatch(/openai-compatible vision model at api\.openai\.com needs an API key/);
    expect(problem({ TUBEKIT_ANALYSIS_PROVIDER: 'gemini', TUBEKIT_ANALYSIS_BASE_URL: 'http://127.0.0.1:9', TUBEKIT_ANALYSIS_MODEL: 'm' })).toMatch(/gemini vision model at 127\.0\.0\.1:9 needs an API key/);
    expect(problem({ TUBEKIT_ANALYSIS_PROVIDER: 'gemini', TUBEKIT_ANALYSIS_API_KEY: KEY, TUBEKIT_ANALYSIS_TIMEOUT: 'soon' })).toMatch(/timeout "soon" \(TUBEKIT_ANALYSIS_TIMEOUT\) is not a positive number of seconds/);
  });
});

describe('describeAnalysisProvider', () => {
  it('describes a configured model for a health check without the key', () => {
    const described = describeAnalysisProvider({ env: { TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: 'https://openrouter.ai/api/v1', TUBEKIT_ANALYSIS_MODEL: 'google/gemma-3-27b-it', TUBEKIT_ANALYSIS_API_KEY: KEY } });
    expect(described).toEqual({
      state: 'configured',
      provider: 'openai-compatible',
      base_url_host: 'openrouter.ai',
      model: 'google/gemma-3-27b-it',
      key_present: true,
      key_source: 'environment',
      message: 'openai-compatible at openrouter.ai, model google/gemma-3-27b-it, key set (environment)',
    });
    expect(JSON.stringify(described)).not.toContain(KEY);
  });

  it('describes none and invalid configurations with how to fix them, never the key', () => {
    expect(describeAnalysisProvider({ env: {} })).toMatchObject({ state: 'none', provider: null, key_present: false, fix: expect.stringContaining('tubekit config set analysis.provider') });
    const shared = describeAnalysisProvider({ env: {}, profile: profile({ provider: 'gemini', api_key: KEY }, 0o100640) });
    expect(shared).toMatchObject({ state: 'invalid', provider: 'gemini', key_present: true, key_source: null, message: expect.stringContaining('others may read (mode 0640)'), fix: expect.stringContaining('chmod 600') });
    expect(JSON.stringify(shared)).not.toContain(KEY);
  });
});
