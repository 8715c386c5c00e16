import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { commandJobSettings, jobEnvironment, saltFile, workerEnvironment } from '../../../src/engine/jobs/job-settings.js';
import { tempDataDir } from '../../support/engines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the settings a local command hands to its jobs', () => {
  it('are the job variables of its environment, its profile, --proxy and --files-dir; never where the engine is', () => {
    const env = { PATH: '/bin', TUBEKIT_ANALYSIS_BASE_URL: 'http://a', TUBEKIT_API_KEY: 'caller', TUBEKIT_DATA_DIR: '/d', TUBEKIT_STORE: 'postgres://x', HTTPS_PROXY: 'http://p:1', TUBEKIT_MODEL: '' };
    expect(jobEnvironment(env, { profileName: 'work', proxy: 'http://q:2', filesDir: '/f' })).toEqual({
      TUBEKIT_ANALYSIS_BASE_URL: 'http://a',
      HTTPS_PROXY: 'http://p:1',
      TUBEKIT_PROFILE: 'work',
      TUBEKIT_PROXY: 'http://q:2',
      TUBEKIT_FILES_DIR: '/f',
    });
    // A worker gets them in place of its parent's own.
    const worker = workerEnvironment({ PATH: '/bin', TUBEKIT_ANALYSIS_MODEL: 'stale', TUBEKIT_ANALYSIS_BASE_URL: 'http://old' }, { TUBEKIT_ANALYSIS_BASE_URL: 'http://new' });
    expect(worker).toEqual({ PATH: '/bin', TUBEKIT_ANALYSIS_BASE_URL: 'http://new' });
  });

  it('have a digest that changes with any setting (a key too) and shows none of them, salted per data dir', () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const key = 'sk-digest-secret-0123456789';
    const first = commandJobSettings(dataDir, { TUBEKIT_ANALYSIS_API_KEY: key }, { profileName: 'default' });
    expect(commandJobSettings(dataDir, { TUBEKIT_ANALYSIS_API_KEY: key }, { profileName: 'default' }).digest).toBe(first.digest);
    expect(commandJobSettings(dataDir, { TUBEKIT_ANALYSIS_API_KEY: `${key}x` }, { profileName: 'default' }).digest).not.toBe(first.digest);
    expect(commandJobSettings(dataDir, { TUBEKIT_ANALYSIS_API_KEY: key }, { profileName: 'other' }).digest).not.toBe(first.digest);
    expect(first.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(saltFile(dataDir)).mode & 0o777).toBe(0o600);
    const elsewhere = tempDataDir();
    dirs.push(elsewhere);
    expect(commandJobSettings(elsewhere, { TUBEKIT_ANALYSIS_API_KEY: key }, { profileName: 'default' }).digest).not.toBe(first.digest);
  });
});
