/**
 * The web dashboard of `serve`: server-rendered pages over the engine's own request handling, so
 * a page shows exactly what the API would answer its signed-in user. Pages and forms live in
 * pages/; this file signs people in and out and wires each path to its page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../core/errors.js';
import type { RouteName } from '../../core/routes.js';
import type { Engine } from '../../engine/engine.js';
import type { Principal } from '../../engine/identity/identity.js';
import { toServiceError } from '../error-mapping.js';
import { requestBaseUrl } from '../host-check.js';
import { registerAssets } from './assets.js';
import { SESSION_COOKIE, SIGN_IN_COOKIE, readCookie, setCookie } from './cookies.js';
import { renderPage, type PageView } from './layout.js';
import type { ActionHandler, PageContext, PageHandler } from './page-context.js';
import { dashboardPages, dashboardActions } from './pages/index.js';
import { errorView } from './pages/error.js';
import { signInView } from './pages/sign-in.js';
import { setSecurityHeaders } from './security-headers.js';
import { SignInLimiter, type SignInLimits } from './sign-in-limit.js';
import { SessionStore, newToken, tokensMatch, type Session, type SessionLimits } from './sessions.js';

export interface DashboardOptions {
  sessions?: Partial<SessionLimits>;
  /** How many refused keys a client may send, and in what window (see sign-in-limit.ts). */
  signIn?: Partial<SignInLimits>;
  /** Wall time for session expiry (tests move it). */
  now?: () => number;
}

interface SignedIn {
  id: string;
  session: Session;
  user: Principal;
}

export function registerDashboard(app: FastifyInstance, engine: Engine, options: DashboardOptions = {}): void {
  const sessions = new SessionStore(options.sessions, options.now);
  const signInLimiter = new SignInLimiter(options.signIn, options.now);

  /** The request's live session and its user, or null: a revoked key ends the session. */
  async function signedIn(request: FastifyRequest): Promise<SignedIn | null> {
    const id = readCookie(request, SESSION_COOKIE);
    const session = sessions.get(id);
    if (!id || !session) return null;
    try {
      return { id, session, user: await engine.authenticate(session.key) };
    } catch {
      sessions.end(id);
      return null;
    }
  }

  const send = (request: FastifyRequest, reply: FastifyReply, view: PageView, csrf?: string) => {
    reply.status(view.status ?? 200).type('text/html; charset=utf-8').send(renderPage(view, { path: request.url.split('?')[0]!, csrf }));
  };

  function contextOf(request: FastifyRequest, signed: SignedIn): PageContext {
    return {
      query: (request.query ?? {}) as Record<string, unknown>,
      params: (request.params ?? {}) as Record<string, string>,
      form: request.method === 'POST' ? ((request.body ?? {}) as Record<string, unknown>) : {},
      csrf: signed.session.csrf,
      call: (name: RouteName, input: Record<string, unknown>) => engine.handle(name, input, signed.user, undefined, requestBaseUrl(request)),
    } as PageContext;
  }

  async function showSignIn(request: FastifyRequest, reply: FastifyReply, error?: string, status?: number) {
    const token = newToken();
    setCookie(request, reply, SIGN_IN_COOKIE, token, 3600);
    send(request, reply, signInView(token, error, status));
  }

  app.register(async (ui) => {
    ui.addHook('onSend', (_request, reply, payload, done) => {
      setSecurityHeaders(reply);
      done(null, payload);
    });
    ui.setErrorHandler((error: Error, request, reply) => {
      send(request, reply, errorView(toServiceError(error as ServiceError)));
    });
    registerAssets(ui);

    ui.get('/', async (request, reply) => {
      reply.redirect((await signedIn(request)) ? '/folders' : '/sign-in', 303);
    });
    ui.get('/sign-in', async (request, reply) => {
      if (await signedIn(request)) reply.redirect('/folders', 303);
      else await showSignIn(request, reply);
    });
    ui.post('/sign-in', async (request, reply) => {
      const wait = signInLimiter.retryAfterSeconds(request.ip);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        await showSignIn(request, reply, `Too many refused keys from your address: try again in ${wait} s.`, 429);
        return;
      }
      const form = (request.body ?? {}) as Record<string, unknown>;
      const expected = readCookie(request, SIGN_IN_COOKIE);
      if (!expected || !tokensMatch(form._csrf, expected)) {
        await showSignIn(request, reply, 'The sign-in form expired or did not come from this dashboard. Try again.', 403);
        return;
      }
      const key = typeof form.key === 'string' ? form.key.trim() : '';
      try {
        await engine.authenticate(key || undefined);
      } catch {
        signInLimiter.refused(request.ip);
        await showSignIn(request, reply, 'That API key was refused. Check it, or create one with `tubekit engine keys create`.', 401);
        return;
      }
      const { id } = sessions.create(key);
      setCookie(request, reply, SIGN_IN_COOKIE, '', 0);
      setCookie(request, reply, SESSION_COOKIE, id, Math.floor(sessions.limits.maxAgeMs / 1000));
      reply.redirect('/folders', 303);
    });
    ui.post('/sign-out', async (request, reply) => {
      const signed = await signedIn(request);
      const form = (request.body ?? {}) as Record<string, unknown>;
      if (signed && !tokensMatch(form._csrf, signed.session.csrf)) {
        send(request, reply, csrfRefused(), signed.session.csrf);
        return;
      }
      if (signed) sessions.end(signed.id);
      setCookie(request, reply, SESSION_COOKIE, '', 0);
      reply.redirect('/sign-in', 303);
    });

    for (const [path, page] of Object.entries(dashboardPages) as [string, PageHandler][]) {
      ui.get(path, async (request, reply) => {
        const signed = await signedIn(request);
        if (!signed) return reply.redirect('/sign-in', 303);
        send(request, reply, await viewOrError(() => page(contextOf(request, signed))), signed.session.csrf);
      });
    }
    for (const [path, action] of Object.entries(dashboardActions) as [string, ActionHandler][]) {
      ui.post(path, async (request, reply) => {
        const signed = await signedIn(request);
        if (!signed) return reply.redirect('/sign-in', 303);
        const form = (request.body ?? {}) as Record<string, unknown>;
        if (!tokensMatch(form._csrf, signed.session.csrf)) {
          send(request, reply, csrfRefused(), signed.session.csrf);
          return;
        }
        const outcome = await viewOrError(() => action(contextOf(request, signed)));
        if ('redirect' in outcome) reply.redirect(outcome.redirect, 303);
        else send(request, reply, outcome, signed.session.csrf);
      });
    }
  });
}

/** A page whose call the engine refused shows the refusal, with its status. */
async function viewOrError<T>(render: () => Promise<T>): Promise<T | PageView> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof ServiceError) return errorView(error);
    throw error;
  }
}

function csrfRefused(): PageView {
  return errorView(new ServiceError({ status: 403, code: 'csrf', message: 'The form expired or did not come from this dashboard; nothing was changed. Reload the page and try again.' }));
}
