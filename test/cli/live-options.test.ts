/**
 * The live platform's options through the built binary: `--proxy` (the live fetch's requests go
 * through a proxy on 127.0.0.1, from a command, from `serve` and from a detached worker), the
 * profile's `cookies_file` (the site sees its cookies), and `--verbose` (which platform, how it
 * reaches the site, and a cool-down after a refusal). Nothing here reaches the internet: the
 * site is a fixture server, reached through TUBEKIT_PLATFORM_ORIGIN.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { CHANNEL_JOB_KIND } from '../../src/engine/features/channels/processor.js';
import { type CliSandbox, cliSandbox, printedUrl, stopDetachedWorkers } from '../support/cli.js';
import { type ForwardProxy, startForwardProxy } from '../support/forward-proxy.js';
import { closedOrigin, type FixtureExchange, type FixtureServer, startFixtureServer } from '../support/platform-fixture-server.js';

const JANE = 'UCtubekitFixtureChannel1';
const CHANNEL: FixtureExchange[] = [
  { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: JANE }, file: 'channel-home.json' },
  { method: 'POST', path: '/youtubei/v1/browse', key: { continuation: 'fixture-about-token' }, file: 'channel-about.json' },
];

let cli: CliSandbox;
let site: FixtureServer | undefined;
let proxy: ForwardProxy | undefined;
let env: Record<string, string>;

async function liveSite(exchanges: FixtureExchange[] = CHANNEL): Promise<void> {
  site = await startFixtureServer(exchanges);
  env = { TUBEKIT_PLATFORM_ORIGIN: site.origin, TUBEKIT_PROXY: '', HTTPS_PROXY: '', https_proxy: '', TUBEKIT_COOKIES: '' };
  expect((await cli.run(['engine', 'platform', 'live'])).exitCode).toBe(0);
}

const resolved = (stdout: string) => JSON.parse(stdout) as { channel_id: string; title: string; known: boolean };
const siteHost = () => new URL(site!.origin).host;
/** What the proxy was asked for the fixture site: a tunnel to it, or a request forwarded to it. */
const throughProxy = () => proxy!.seen.filter((line) => line.includes(siteHost()));

beforeEach(() => {
  cli = cliSandbox();
});
afterEach(async () => {
  stopDetachedWorkers(cli.dataDir);
  await site?.close();
  await proxy?.close();
  site = undefined;
  proxy = undefined;
  cli.cleanup();
});

describe('--proxy', () => {
  it('sends the live platform\'s requests through the proxy, and wins over TUBEKIT_PROXY', async () => {
    await liveSite();
    proxy = await startForwardProxy();
    const direct = await cli.run(['resolve', JANE, '--json'], { env });
    expect(direct.exitCode).toBe(0);
    expect(proxy.seen).toEqual([]);
    // TUBEKIT_PROXY names a port where nothing listens: only the flag's proxy can make this work.
    const proxied = await cli.run(['--proxy', proxy.url, 'resolve', JANE, '--json'], { env: { ...env, TUBEKIT_PROXY: await closedOrigin() } });
    expect(proxied.exitCode).toBe(0);
    expect(resolved(proxied.stdout)).toMatchObject({ channel_id: JANE, title: 'Cozy Cooking Jane', known: true });
    expect(throughProxy().length).toBeGreaterThanOrEqual(1);
    expect(site!.seen).toHaveLength(4); // twice the channel page and its about view
  });

  it('reaches serve\'s engine', async () => {
    await liveSite();
    proxy = await startForwardProxy();
    const serve = cli.spawn(['--proxy', proxy.url, 'serve', '--port', '0'], { env });
    try {
      const url = await printedUrl(serve);
      const key = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
      const result = await cli.run(['resolve', JANE, '--json'], { env: { ...env, TUBEKIT_BASE_URL: url, TUBEKIT_API_KEY: key } });
      expect(result.exitCode).toBe(0);
      expect(resolved(result.stdout).channel_id).toBe(JANE);
      expect(throughProxy().length).toBeGreaterThanOrEqual(1);
    } finally {
      serve.kill('SIGTERM');
      await serve;
    }
  });

  it('goes with the detached worker a local submit starts', async () => {
    await liveSite([...CHANNEL, ...CHANNEL]);
    proxy = await startForwardProxy();
    // A channel job on the live platform reads the channel first (what comes after needs the live index).
    const previous = process.env.TUBEKIT_PLATFORM_ORIGIN;
    process.env.TUBEKIT_PLATFORM_ORIGIN = site!.origin;
    const engine = Engine.open({ dataDir: cli.dataDir, jobRunner: { mode: 'spawn' }, platform: { proxy: proxy.url } });
    try {
      const { user_id: userId } = await engine.identity.createUserWithKey('ultimate', []);
      await engine.jobs.enqueue({ kind: CHANNEL_JOB_KIND, userId, input: { channel_input: JANE, type: 'longform', channel_id: JANE } });
      await expect.poll(() => throughProxy().length, { timeout: 30_000, interval: 200 }).toBeGreaterThanOrEqual(1);
    } finally {
      await engine.close();
      if (previous === undefined) delete process.env.TUBEKIT_PLATFORM_ORIGIN;
      else process.env.TUBEKIT_PLATFORM_ORIGIN = previous;
    }
  });

  it('refuses a proxy that is not an http(s) URL, from the flag or the environment (exit 2), and in remote mode', async () => {
    await liveSite();
    for (const bad of ['ftp://127.0.0.1:21', 'not a url', 'http://127.0.0.1:8080/path']) {
      const result = await cli.run(['--proxy', bad, 'resolve', JANE], { env });
      expect(result.exitCode, bad).toBe(2);
      expect(result.stderr, bad).toContain('--proxy:');
    }
    const secret = await cli.run(['--proxy', 'socks5://user:hunter2@127.0.0.1:1080', 'resolve', JANE], { env });
    expect(secret.exitCode).toBe(2);
    expect(secret.stderr).toContain('socks5://***@127.0.0.1:1080');
    expect(secret.stderr).not.toContain('hunter2');
    const fromEnv = await cli.run(['resolve', JANE, '--json'], { env: { ...env, TUBEKIT_PROXY: 'proxy.example:3128' } });
    expect(fromEnv.exitCode).toBe(2);
    expect(fromEnv.stderr).toContain('TUBEKIT_PROXY');
    expect(site!.seen).toEqual([]);
    const remote = await cli.run(['--proxy', 'http://127.0.0.1:3128', '--base-url', 'http://127.0.0.1:9', 'folders', 'list']);
    expect(remote.exitCode).toBe(2);
    expect(remote.stderr).toContain('--proxy applies to the embedded engine');
  });
});

describe('the cookies file setting', () => {
  it('sends the profile\'s cookies to the site, shows only the path, and yields to TUBEKIT_COOKIES', async () => {
    await liveSite([...CHANNEL, ...CHANNEL]);
    const cookies = path.join(cli.configDir, '..', 'cookies.txt');
    fs.writeFileSync(cookies, '# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t0\tSID\tsecret-session\n');
    const set = await cli.run(['config', 'set', 'cookies_file', cookies]);
    expect(set.exitCode).toBe(0);
    const listed = await cli.run(['config', 'list', '--json']);
    expect(JSON.parse(listed.stdout).settings.cookies_file).toBe(path.resolve(cookies));
    expect(listed.stdout + set.stderr).not.toContain('secret-session');
    expect((await cli.run(['resolve', JANE, '--json'], { env })).exitCode).toBe(0);
    expect(site!.seen.map((request) => request.headers.cookie)).toEqual(['SID=secret-session', 'SID=secret-session']);
    const other = path.join(cli.configDir, '..', 'other.txt');
    fs.writeFileSync(other, '.youtube.com\tTRUE\t/\tTRUE\t0\tSID\tfrom-env\n');
    expect((await cli.run(['resolve', JANE, '--json'], { env: { ...env, TUBEKIT_COOKIES: other } })).exitCode).toBe(0);
    expect(site!.seen.slice(2).map((request) => request.headers.cookie)).toEqual(['SID=from-env', 'SID=from-env']);
  });

  it('refuses a path that is not a file', async () => {
    const result = await cli.run(['config', 'set', 'cookies_file', path.join(cli.configDir, 'missing.txt')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('is not a file');
    expect(JSON.parse((await cli.run(['config', 'list', '--json'])).stdout).settings.cookies_file).toBeNull();
  });
});

describe('--verbose', () => {
  it('names the platform in use, how the live one reaches the site, and its cool-down after a refusal', async () => {
    await liveSite([
      { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: JANE }, status: 429, headers: { 'retry-after': '1' }, body: 'slow down', times: 1 },
      ...CHANNEL,
    ]);
    const result = await cli.run(['--verbose', 'resolve', JANE, '--json'], { env });
    expect(result.exitCode).toBe(0);
    expect(resolved(result.stdout).channel_id).toBe(JANE);
    expect(result.stderr).toContain(`[trace] platform: live (data dir ${cli.dataDir})`);
    expect(result.stderr).toContain(`[trace] live platform: requests to ${site!.origin}, no proxy`);
    expect(result.stderr).toMatch(/\[trace\] live platform: www\.youtube\.com refused a request \(HTTP 429, too many requests\); cooling down for \d+\.\d s before trying again/);
    // Without --verbose, none of it.
    const quiet = await cli.run(['resolve', JANE, '--json'], { env });
    expect(quiet.stderr).toBe('');
  });

  it('names the sample platform too', async () => {
    const result = await cli.run(['--verbose', 'terminated', 'cooking', '--per-page', '1']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(`[trace] platform: sample (data dir ${cli.dataDir})`);
  });
});
