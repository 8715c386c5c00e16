import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCookie } from '../../src/server/ui/cookies.js';
import { ASSET_CACHE_CONTROL, uiAssets } from '../../src/server/ui/assets.js';
import { SessionStore } from '../../src/server/ui/sessions.js';
import { cookieValue, csrfOf, setCookies, signIn, startDashboard, type DashboardServer } from '../support/dashboard.js';

const WORLD = { seed: 7, channels: 60, terminated: 0 };

describe('dashboard sign-in and sessions over HTTP', () => {
  let dash: DashboardServer;
  let now = Date.UTC(2026, 10, 29);
  beforeAll(async () => {
    dash = await startDashboard(WORLD, { dashboard: { now: () => now, sessions: { idleMs: 60_000, maxAgeMs: 600_000 } } });
  });
  afterAll(async () => {
    await dash?.close();
  });

  it('sends a signed-out visitor to the sign-in form, which has a CSRF field and sets its cookie HttpOnly, SameSite=Strict, not Secure on loopback', async () => {
    const root = await fetch(`${dash.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(303);
    expect(root.headers.get('location')).toBe('/sign-in');
    expect((await fetch(`${dash.url}/folders`, { redirect: 'manual' })).headers.get('location')).toBe('/sign-in');
    const form = await fetch(`${dash.url}/sign-in`);
    const cookie = setCookies(form).get('tubekit_sign_in')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    expect(csrfOf(await form.text())).toBe(cookieValue(cookie));
  });

  it('signs in with a key into a session cookie and never writes the key into a page or a header', async () => {
    const key = await dash.key();
    const form = await fetch(`${dash.url}/sign-in`);
    const token = cookieValue(setCookies(form).get('tubekit_sign_in'));
    const posted = await fetch(`${dash.url}/sign-in`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `tubekit_sign_in=${token}` },
      body: new URLSearchParams({ _csrf: token, key }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/folders');
    const session = setCookies(posted).get('tubekit_session')!;
    expect(session).toMatch(/HttpOnly; SameSite=Strict; Max-Age=600/);
    expect(session).not.toContain(key);
    const page = await fetch(`${dash.url}/folders`, { headers: { cookie: `tubekit_session=${cookieValue(session)}` } });
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('GET /api/folders');
    expect(text).not.toContain(key);
  });

  it('refuses a wrong key with 401 and no session, and a sign-in post without its CSRF token with 403', async () => {
    const form = await fetch(`${dash.url}/sign-in`);
    const token = cookieValue(setCookies(form).get('tubekit_sign_in'));
    const post = (fields: Record<string, string>, cookie = `tubekit_sign_in=${token}`) =>
      fetch(`${dash.url}/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams(fields).toString() });
    const wrong = await post({ _csrf: token, key: 'tk_not_a_key' });
    expect(wrong.status).toBe(401);
    expect(setCookies(wrong).has('tubekit_session')).toBe(false);
    expect(await wrong.text()).toContain('That API key was refused');
    const forged = await post({ _csrf: 'x'.repeat(token.length), key: await dash.key() });
    expect(forged.status).toBe(403);
    expect(setCookies(forged).has('tubekit_session')).toBe(false);
  });

  it('changes nothing on a form post without the session\'s CSRF token', async () => {
    const { cookie, csrf } = await signIn(dash.url, await dash.key());
    const create = (token: string) => fetch(`${dash.url}/alerts`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: new URLSearchParams({ _csrf: token, name: 'Forged', alert_type: 'outlier', content_type: 'longform' }).toString(),
    });
    expect((await create('')).status).toBe(403);
    expect(await (await fetch(`${dash.url}/alerts`, { headers: { cookie } })).text()).not.toContain('Forged');
    expect((await create(csrf)).status).toBe(303);
    expect(await (await fetch(`${dash.url}/alerts`, { headers: { cookie } })).text()).toContain('Forged');
  });

  it('ends a session on sign-out, after it sat idle too long, and when its key is revoked', async () => {
    const key = await dash.key();
    const first = await signIn(dash.url, key);
    const out = await fetch(`${dash.url}/sign-out`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: first.cookie }, body: `_csrf=${first.csrf}` });
    expect(out.status).toBe(303);
    expect(setCookies(out).get('tubekit_session')).toMatch(/Max-Age=0/);
    expect((await fetch(`${dash.url}/folders`, { redirect: 'manual', headers: { cookie: first.cookie } })).status).toBe(303);

    const second = await signIn(dash.url, key);
    now += 59_000;
    expect((await fetch(`${dash.url}/folders`, { redirect: 'manual', headers: { cookie: second.cookie } })).status).toBe(200);
    now += 61_000;
    expect((await fetch(`${dash.url}/folders`, { redirect: 'manual', headers: { cookie: second.cookie } })).status).toBe(303);

    const third = await signIn(dash.url, key);
    await dash.engine.identity.revokeKey(key);
    expect((await fetch(`${dash.url}/folders`, { redirect: 'manual', headers: { cookie: third.cookie } })).status).toBe(303);
  });

  it('answers pages with a strict CSP and no caching, and assets by content hash with a year of caching', async () => {
    const page = await fetch(`${dash.url}/sign-in`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(html).toContain(uiAssets.js.path);
    const asset = await fetch(`${dash.url}${uiAssets.css.path}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe(ASSET_CACHE_CONTROL);
    expect(asset.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${dash.url}${uiAssets.css.path}`, { headers: { 'if-none-match': asset.headers.get('etag')! } })).status).toBe(304);
    expect((await fetch(`${dash.url}/ui/assets/app.0000000000000000.css`)).status).toBe(404);
  });
});

describe('serve --no-ui', () => {
  it('serves the API only: no dashboard at /', async () => {
    const dash = await startDashboard(WORLD, { dashboard: false });
    try {
      expect((await fetch(`${dash.url}/sign-in`)).status).toBe(404);
      expect((await fetch(`${dash.url}/`)).status).toBe(404);
      expect((await fetch(`${dash.url}/api/health`)).status).toBe(200);
    } finally {
      await dash.close();
    }
  });
});

describe('session store', () => {
  it('ends a busy session at its absolute age, and keeps at most its number of sessions', () => {
    let now = 0;
    const store = new SessionStore({ idleMs: 10, maxAgeMs: 25, maxSessions: 2 }, () => now);
    const { id } = store.create('k1');
    for (now = 5; now <= 25; now += 5) expect(store.get(id)).not.toBeNull();
    now = 26;
    expect(store.get(id)).toBeNull();
    const a = store.create('a').id;
    store.create('b');
    store.create('c');
    expect(store.get(a)).toBeNull();
  });
});

describe('session cookie attributes', () => {
  const written = (localAddress: string) => {
    const headers = new Map<string, unknown>();
    const request = { raw: { socket: { localAddress } } } as unknown as FastifyRequest;
    const reply = { getHeader: (name: string) => headers.get(name), header: (name: string, value: unknown) => headers.set(name, value) } as unknown as FastifyReply;
    setCookie(request, reply, 'tubekit_session', 'abc', 60);
    return (headers.get('set-cookie') as string[])[0]!;
  };

  it('marks the cookie Secure unless the connection came in on a loopback address', () => {
    for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(written(loopback)).not.toMatch(/Secure/);
    for (const other of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1']) expect(written(other)).toMatch(/; Secure$/);
  });
});
