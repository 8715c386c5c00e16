/**
 * The sign-in form's limit on guessing: ten refused keys from one client within 15 minutes, then
 * 429 with Retry-After for every sign-in from it (a right key too) until the oldest leaves the window.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SIGN_IN_LIMITS } from '../../src/server/ui/sign-in-limit.js';
import { cookieValue, csrfOf, setCookies, startDashboard, type DashboardServer } from '../support/dashboard.js';

let dash: DashboardServer;
let now = Date.UTC(2026, 10, 29, 8, 0, 0);
beforeAll(async () => {
  dash = await startDashboard({ seed: 7, channels: 40, terminated: 0 }, { dashboard: { now: () => now } });
});
afterAll(async () => {
  await dash?.close();
});

async function signIn(key: string): Promise<Response> {
  const form = await fetch(`${dash.url}/sign-in`);
  const token = cookieValue(setCookies(form).get('tubekit_sign_in'));
  expect(csrfOf(await form.text())).toBe(token);
  return fetch(`${dash.url}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `tubekit_sign_in=${token}` },
    body: new URLSearchParams({ _csrf: token, key }).toString(),
  });
}

it('answers 429 with Retry-After after ten refused keys in 15 minutes, a right key included, until the window passes', async () => {
  expect(DEFAULT_SIGN_IN_LIMITS).toMatchObject({ attempts: 10, windowMs: 15 * 60_000 });
  const key = await dash.key();
  const started = now;
  for (let attempt = 0; attempt < 10; attempt++) {
    expect((await signIn(`tk_wrong_${attempt}`)).status).toBe(401);
    now += 30_000;
  }
  const limited = await signIn('tk_wrong_again');
  expect(limited.status).toBe(429);
  // The oldest refusal leaves the window 15 minutes after it was made.
  expect(limited.headers.get('retry-after')).toBe(String((started + 15 * 60_000 - now) / 1000));
  expect(await limited.text()).toContain('Too many refused keys from your address');
  const right = await signIn(key);
  expect(right.status).toBe(429);
  expect(setCookies(right).has('tubekit_session')).toBe(false);

  // Once the first refusal is out of the window, one more try is allowed.
  now = started + 15 * 60_000 + 1;
  const after = await signIn(key);
  expect(after.status).toBe(303);
  expect(setCookies(after).has('tubekit_session')).toBe(true);
});
