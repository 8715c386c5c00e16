/** A served engine with the dashboard, and a signed-in HTTP session over plain fetch (no browser). */
import type { Engine } from '../../src/engine/engine.js';
import { openEngine, type OpenEngineOptions } from '../../src/engine/open-engine.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/server/serve.js';
import { tempDataDir } from './engines.js';

export interface DashboardServer {
  engine: Engine;
  server: RunningServer;
  url: string;
  /** A key of a new user on `plan`. */
  key(plan?: 'starter' | 'professional' | 'ultimate' | 'none'): Promise<string>;
  close(): Promise<void>;
}

export async function startDashboard(world: { seed: number; channels: number; terminated?: number }, options: Partial<ServeOptions> = {}, engineOptions: Partial<OpenEngineOptions> = {}): Promise<DashboardServer> {
  const engine = await openEngine({ ...engineOptions, dataDir: tempDataDir('tubekit-dashboard-') });
  await engine.reseedWorld(world);
  const server = await startServer({ engine, port: 0, workers: 1, ...options });
  return {
    engine,
    server,
    url: server.url,
    key: async (plan = 'professional') => (await engine.identity.createUserWithKey(plan, ['generations'])).key,
    close: async () => {
      await server.close();
      await engine.close();
    },
  };
}

/** The cookies a response sets, by name, with their attributes as written. */
export function setCookies(response: Response): Map<string, string> {
  return new Map(response.headers.getSetCookie().map((line) => [line.slice(0, line.indexOf('=')), line]));
}

/** The value part of a Set-Cookie line. */
export const cookieValue = (line: string | undefined): string => (line ?? '').split(';')[0]!.split('=').slice(1).join('=');

/** The hidden CSRF field of a page. */
export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('the page has no CSRF field');
  return match[1]!;
}

/** Signs in with a key over fetch; returns the session cookie header and the signed-in CSRF token. */
export async function signIn(url: string, key: string): Promise<{ cookie: string; csrf: string }> {
  const form = await fetch(`${url}/sign-in`);
  const signInCookie = cookieValue(setCookies(form).get('tubekit_sign_in'));
  const posted = await fetch(`${url}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `tubekit_sign_in=${signInCookie}` },
    body: new URLSearchParams({ _csrf: csrfOf(await form.text()), key }).toString(),
  });
  if (posted.status !== 303) throw new Error(`sign-in answered ${posted.status}`);
  const cookie = `tubekit_session=${cookieValue(setCookies(posted).get('tubekit_session'))}`;
  const page = await fetch(`${url}/folders`, { headers: { cookie } });
  return { cookie, csrf: csrfOf(await page.text()) };
}
