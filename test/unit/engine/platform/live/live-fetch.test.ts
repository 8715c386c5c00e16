/** The live platform's networking layer against a fixture server on 127.0.0.1. */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeForError } from '../../../../../src/core/exit-codes.js';
import { cookieHeader, parseNetscapeCookies } from '../../../../../src/engine/platform/live/cookies.js';
import { createLiveFetch } from '../../../../../src/engine/platform/live/live-fetch.js';
import { DEFAULT_NETWORK, type LiveNetworkSettings, networkSettingsFromEnv } from '../../../../../src/engine/platform/live/network-options.js';
import { HostPacer } from '../../../../../src/engine/platform/live/pacer.js';
import { RAW_LIMITS, saveLastExchange, withRawTrail } from '../../../../../src/engine/platform/live/raw-responses.js';
import { backoffMs } from '../../../../../src/engine/platform/live/refusal.js';
import { closedOrigin, type FixtureServer, startFixtureServer } from '../../../../support/platform-fixture-server.js';
import { caught } from '../../../../support/service-errors.js';

const BROWSE = 'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false&alt=json';
const browse = (fields: Record<string, string>) => ({ method: 'POST', body: JSON.stringify({ context: { client: {} }, ...fields }), headers: { 'content-type': 'application/json' } });

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function settings(origin: string, extra: Partial<LiveNetworkSettings> = {}): LiveNetworkSettings {
  return { ...DEFAULT_NETWORK, origin, requestsPerSecond: 1000, backoffBaseMs: 1, backoffCapMs: 50, ...extra };
}

describe('the live fetch', () => {
  it('sends every request to the origin override with the same path and query, keyed by the stable fields', async () => {
    server = await startFixtureServer([
      { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: 'UCaaaaaaaaaaaaaaaaaaaaaa' }, body: '{"ok":true}' },
      { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: 'UCbbbbbbbbbbbbbbbbbbbbbb' }, status: 404, body: 'Not Found' },
    ]);
    const fetch = await createLiveFetch(settings(server.origin));
    const response = await fetch(BROWSE, browse({ browseId: 'UCaaaaaaaaaaaaaaaaaaaaaa' }));
    expect(await response.json()).toEqual({ ok: true });
    expect(server.seen[0]).toMatchObject({ method: 'POST', path: '/youtubei/v1/browse' });
    // youtubei.js hands a Request and the init separately: the URL comes from the Request.
    const again = await fetch(new Request(BROWSE, { method: 'POST' }), browse({ browseId: 'UCaaaaaaaaaaaaaaaaaaaaaa' }));
    expect(again.status).toBe(200);
    expect(server.unmatched).toEqual([]);
    // A 404 is an answer, not a crash of the fetch (its verdict is read-verdict.ts's).
    expect((await fetch(BROWSE, browse({ browseId: 'UCbbbbbbbbbbbbbbbbbbbbbb' }))).status).toBe(404);
  });

  it('rejects an origin override that is not an origin', async () => {
    const error = await caught(createLiveFetch(settings('http://127.0.0.1:1/some/path')));
    expect(error.status).toBe(400);
    expect(error.message).toContain('TUBEKIT_PLATFORM_ORIGIN');
  });

  it('backs off on a 429, honouring Retry-After, then answers', async () => {
    server = await startFixtureServer([
      { method: 'POST', path: '/youtubei/v1/browse', key: {}, status: 429, headers: { 'retry-after': '3' }, body: 'slow down', times: 1 },
      { method: 'POST', path: '/youtubei/v1/browse', key: {}, body: '{}' },
    ]);
    const waits: number[] = [];
    const cooldowns: string[] = [];
    const fetch = await createLiveFetch(settings(server.origin, { backoffCapMs: 5000 }), {
      sleep: async (ms) => void waits.push(ms),
      onCooldown: (host, ms, reason) => cooldowns.push(`${host} ${reason} ${ms}`),
    });
    expect((await fetch(BROWSE, browse({}))).status).toBe(200);
    expect(cooldowns).toEqual(['www.youtube.com rate_limited 3000']);
    expect(server.seen).toHaveLength(2);
  });

  it('gives up after the retries with an error that says to slow down, use a proxy or cookies', async () => {
    server = await startFixtureServer([{ method: 'POST', path: '/youtubei/v1/browse', key: {}, status: 429, body: 'slow down' }]);
    const fetch = await createLiveFetch(settings(server.origin, { retries: 2 }));
    const error = await caught(fetch(BROWSE, browse({})));
    expect(error.status).toBe(429);
    expect(error.code).toBe('platform_refused');
    expect(error.message).toContain('rate limiting');
    expect(error.hint).toMatch(/slow down/i);
    expect(error.hint).toMatch(/proxy/);
    expect(error.hint).toMatch(/cookies/);
    expect(server.seen).toHaveLength(3);
  });

  it('does not block on a Retry-After longer than the longest back-off', async () => {
    server = await startFixtureServer([{ method: 'POST', path: '/youtubei/v1/browse', key: {}, status: 429, headers: { 'retry-after': '3600' }, body: '' }]);
    const fetch = await createLiveFetch(settings(server.origin));
    const error = await caught(fetch(BROWSE, browse({})));
    expect(error.retryAfterSeconds).toBe(3600);
    expect(server.seen).toHaveLength(1);
  });

  it('recognises a bot check in a player answer (HTTP 200) and a sign-in wall', async () => {
    const botCheck = JSON.stringify({ playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' } });
    server = await startFixtureServer([
      { method: 'POST', path: '/youtubei/v1/player', key: { videoId: 'aaaaaaaaaaa' }, body: botCheck },
      { method: 'GET', path: '/signin-wall', key: {}, status: 403, body: '<html>Sign in to continue to YouTube</html>' },
    ]);
    const fetch = await createLiveFetch(settings(server.origin, { retries: 1 }));
    const bot = await caught(fetch('https://www.youtube.com/youtubei/v1/player', browse({ videoId: 'aaaaaaaaaaa' })));
    expect(bot.message).toContain('not a bot');
    const signIn = await caught(fetch('https://www.youtube.com/signin-wall'));
    expect(signIn.message).toContain('asks to sign in');
  });

  it('says the platform could not be reached, as exit 9 / HTTP 503', async () => {
    const fetch = await createLiveFetch(settings(await closedOrigin()));
    const error = await caught(fetch(BROWSE, browse({})));
    expect(error.message).toBe('the video platform could not be reached (www.youtube.com: connection refused)');
    expect(error.status).toBe(503);
    expect(exitCodeForError(error)).toBe(9);
    expect(error.hint).toContain('--proxy');
  });

  it('times an attempt out, and aborts on request', async () => {
    server = await startFixtureServer([], { hang: ['/hang'] });
    const fetch = await createLiveFetch(settings(server.origin, { timeoutMs: 200 }));
    const error = await caught(fetch('https://www.youtube.com/hang'));
    expect(error.message).toBe('the video platform could not be reached (www.youtube.com: timed out after 0s)');
    const controller = new AbortController();
    const abortable = await createLiveFetch(settings(server.origin), { signal: controller.signal });
    const pending = abortable('https://www.youtube.com/hang');
    setTimeout(() => controller.abort(new Error('stopped')), 50);
    await expect(pending).rejects.toThrow('stopped');
  });

  it('sends the cookies of a Netscape file for the real host, before the override', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-cookies-'));
    const file = path.join(dir, 'cookies.txt');
    fs.writeFileSync(file, '# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t0\tSID\tabc\n#HttpOnly_.google.com\tTRUE\t/\tTRUE\t0\tOTHER\tx\n');
    server = await startFixtureServer([{ method: 'POST', path: '/youtubei/v1/browse', key: {}, body: '{}' }]);
    const fetch = await createLiveFetch(settings(server.origin, { cookiesFile: file }));
    await fetch(BROWSE, browse({}));
    expect(server.seen[0]!.headers.cookie).toBe('SID=abc');
  });

  it('reads Netscape cookies line by line and says which line is wrong', () => {
    const cookies = parseNetscapeCookies('.youtube.com\tTRUE\t/\tTRUE\t100\tA\t1\nwww.youtube.com\tFALSE\t/\tFALSE\t0\tB\t2\n', 'c.txt');
    expect(cookieHeader(cookies, new URL('https://www.youtube.com/x'), 50)).toBe('A=1; B=2');
    expect(cookieHeader(cookies, new URL('https://www.youtube.com/x'), 500)).toBe('B=2'); // A expired
    expect(cookieHeader(cookies, new URL('https://m.youtube.com/x'), 50)).toBe('A=1');
    expect(() => parseNetscapeCookies('# c\nnot a cookie\n', 'c.txt')).toThrow('c.txt, line 2');
  });

  it('goes through a proxy (TUBEKIT_PROXY / --proxy)', async () => {
    server = await startFixtureServer([{ method: 'POST', path: '/youtubei/v1/browse', key: {}, body: '{"via":"proxy"}' }]);
    const tunnels: string[] = [];
    const proxy = http.createServer();
    proxy.on('connect', (req, client, head) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const upstream = net.connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const fromEnv = networkSettingsFromEnv({ TUBEKIT_PROXY: proxyUrl, TUBEKIT_PLATFORM_ORIGIN: server.origin });
      expect(networkSettingsFromEnv({ TUBEKIT_PROXY: 'http://a' }, { proxy: 'http://b' }).proxy).toBe('http://b');
      const fetch = await createLiveFetch({ ...fromEnv, requestsPerSecond: 1000 });
      expect(await (await fetch(BROWSE, browse({}))).json()).toEqual({ via: 'proxy' });
      expect(tunnels).toEqual([new URL(server.origin).host]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('saves the raw response of a read for a bug report', async () => {
    server = await startFixtureServer([{ method: 'POST', path: '/youtubei/v1/browse', key: { browseId: 'UCx' }, body: '{"odd":1}' }]);
    const fetch = await createLiveFetch(settings(server.origin));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-raw-'));
    const saved = await withRawTrail(async () => {
      await fetch(BROWSE, browse({ browseId: 'UCx' }));
      return saveLastExchange(dir, 'browse UCx');
    });
    expect(saved).toContain(path.join(dir, 'platform-raw'));
    const raw = JSON.parse(fs.readFileSync(saved!, 'utf8'));
    expect(raw).toMatchObject({ method: 'POST', request: { browseId: 'UCx' }, status: 200, body: '{"odd":1}' });
  });

  it('keeps only the newest saved answers of each endpoint', async () => {
    server = await startFixtureServer([
      { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: 'UCx' }, body: '{"odd":1}' },
      { method: 'POST', path: '/youtubei/v1/player', key: { videoId: 'v' }, body: '{"odd":2}' },
    ]);
    const fetch = await createLiveFetch(settings(server.origin));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-raw-'));
    const save = (url: string, key: Record<string, string>, atMs: number) =>
      withRawTrail(async () => {
        await fetch(url, browse(key));
        return saveLastExchange(dir, 'a read', atMs);
      });
    const browses: Array<string | null> = [];
    for (let n = 0; n < RAW_LIMITS.perEndpoint + 3; n++) browses.push(await save(BROWSE, { browseId: 'UCx' }, Date.UTC(2026, 0, 1, 0, 0, n)));
    const player = await save(BROWSE.replace('/browse', '/player'), { videoId: 'v' }, Date.UTC(2025, 0, 1));
    const kept = fs.readdirSync(path.join(dir, 'platform-raw'));
    expect(kept).toHaveLength(RAW_LIMITS.perEndpoint + 1);
    // The oldest browse answers went; the newest stay, and another endpoint's is not counted with them.
    expect(fs.existsSync(browses[0]!)).toBe(false);
    expect(fs.existsSync(browses.at(-1)!)).toBe(true);
    expect(fs.existsSync(player!)).toBe(true);
  });
});

describe('redirects and saved answers', () => {
  it('follows redirects only on the platform (or the override), never to another host or port', async () => {
    const elsewhere = await startFixtureServer([{ method: 'GET', path: '/internal', key: {}, body: 'secret' }]);
    try {
      server = await startFixtureServer([
        { method: 'GET', path: '/moved', key: {}, status: 302, headers: { location: 'https://www.youtube.com/landed' }, body: '' },
        { method: 'GET', path: '/landed', key: {}, body: '{"landed":true}' },
        { method: 'GET', path: '/away', key: {}, status: 302, headers: { location: `${elsewhere.origin}/internal` }, body: '' },
        { method: 'GET', path: '/loop', key: {}, status: 302, headers: { location: 'https://www.youtube.com/loop' }, body: '' },
        { method: 'GET', path: '/lookalike', key: {}, status: 302, headers: { location: 'https://youtube.com.evil.example/x' }, body: '' },
      ]);
      const fetch = await createLiveFetch(settings(server.origin));
      // A platform host is followed through the override.
      expect(await (await fetch('https://www.youtube.com/moved')).json()).toEqual({ landed: true });
      const away = await caught(fetch('https://www.youtube.com/away'));
      expect(away).toMatchObject({ status: 502, code: 'upstream_error' });
      expect(away.message).toMatch(/redirected \/away to 127\.0\.0\.1:\d+, which is not one of its hosts; not followed/);
      expect(elsewhere.seen).toEqual([]);
      expect((await caught(fetch('https://www.youtube.com/lookalike'))).message).toMatch(/youtube\.com\.evil\.example, which is not one of its hosts/);
      expect((await caught(fetch('https://www.youtube.com/loop'))).message).toMatch(/more than 5 times/);
    } finally {
      await elsewhere.close();
    }
  });

  it('keeps the start of a large answer and only the newest saved answers', async () => {
    server = await startFixtureServer([{ method: 'POST', path: '/youtubei/v1/browse', key: {}, body: `{"odd":"${'x'.repeat(RAW_LIMITS.bodyChars + 10)}"}` }]);
    const fetch = await createLiveFetch(settings(server.origin));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-raw-'));
    // Older answers of many endpoints (each under its own cap) fill the directory past its whole cap.
    const rawDir = path.join(dir, 'platform-raw');
    fs.mkdirSync(rawDir, { recursive: true });
    const older = Array.from({ length: RAW_LIMITS.files + 5 }, (_, index) => path.join(rawDir, `2025-01-01T00-00-${String(index).padStart(2, '0')}-000Z--endpoint${index}--old.json`));
    for (const file of older) fs.writeFileSync(file, '{}');
    const saved = await withRawTrail(async () => {
      await fetch(BROWSE, browse({}));
      return saveLastExchange(dir, 'browse', Date.UTC(2026, 0, 1));
    });
    const raw = JSON.parse(fs.readFileSync(saved!, 'utf8'));
    expect(raw.body.length).toBe(RAW_LIMITS.bodyChars);
    expect(raw).toMatchObject({ body_truncated: true, body_chars: RAW_LIMITS.bodyChars + 20 });
    expect(fs.readdirSync(rawDir)).toHaveLength(RAW_LIMITS.files);
    expect(fs.existsSync(older[0]!)).toBe(false);
    expect(fs.existsSync(older.at(-1)!)).toBe(true);
  });
});

describe('pacing and back-off', () => {
  it('starts at most N requests a second to each host, hosts apart', async () => {
    let now = 0;
    const waits: number[] = [];
    const pacer = new HostPacer(2, () => now, async (ms) => {
      waits.push(ms);
    });
    await pacer.take('a');
    await pacer.take('a');
    await pacer.take('a');
    await pacer.take('b');
    expect(waits).toEqual([500, 1000]);
    now = 5000;
    await pacer.take('a');
    expect(waits).toHaveLength(2);
    expect(networkSettingsFromEnv({ TUBEKIT_PLATFORM_RATE: '0.5' }).requestsPerSecond).toBe(0.5);
    expect(() => networkSettingsFromEnv({ TUBEKIT_PLATFORM_RATE: 'fast' })).toThrow('TUBEKIT_PLATFORM_RATE');
    expect(networkSettingsFromEnv({ TUBEKIT_PLATFORM_TIMEOUT: '1.5' }).timeoutMs).toBe(1_500);
    expect(networkSettingsFromEnv({}).timeoutMs).toBe(20_000);
    expect(() => networkSettingsFromEnv({ TUBEKIT_PLATFORM_TIMEOUT: '0' })).toThrow('TUBEKIT_PLATFORM_TIMEOUT');
  });

  it('jitters between half and all of the exponential step, never below the hint, capped', () => {
    expect(backoffMs(0, 1000, 60_000, undefined, () => 0)).toBe(500);
    expect(backoffMs(2, 1000, 60_000, undefined, () => 1)).toBe(4000);
    expect(backoffMs(0, 1000, 60_000, 10, () => 0)).toBe(10_000);
    expect(backoffMs(10, 1000, 60_000, undefined, () => 1)).toBe(60_000);
    expect(backoffMs(0, 1000, 5_000, 30, () => 1)).toBe(30_000);
  });
});
