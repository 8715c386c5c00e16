import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ServiceError, notFound } from '../core/errors.js';
import { methodsForPath } from '../core/route-match.js';
import type { RouteDef } from '../core/route.js';
import { routes, type RouteName } from '../core/routes.js';
import type { Engine } from '../engine/engine.js';
import type { Principal } from '../engine/identity/identity.js';
import { cdnDir } from '../engine/paths.js';
import { requestApiKey } from './auth.js';
import { guardRequestBodies, type BodyBounds } from './body-guard.js';
import { registerCdn } from './cdn.js';
import { answerClientError, answerFrameworkError, forCaller, toServiceError } from './error-mapping.js';
import { guardHostHeader, requestBaseUrl } from './host-check.js';
import { openApiJson } from './openapi.js';
import { BODY_MAX_BYTES, collectInput, hasFormBody } from './request-input.js';
import { parseUrlEncodedForm } from './urlencoded-form.js';
import { requestLogger, type LogSink } from './request-log.js';
import { registerDashboard, type DashboardOptions } from './ui/dashboard.js';
import { lazyRequestSignal } from './request-signal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The principal of the request's key, once authenticated. */
    caller: Principal | null;
  }
}

export interface AppOptions {
  engine: Engine;
  /** Logs one line per request to stderr. */
  logRequests?: boolean;
  /** Where those lines go (default stderr). */
  logSink?: LogSink;
  /** How long a request body may take before it is answered 408 and closed (body-guard.ts). */
  bodyBounds?: Partial<BodyBounds>;
  /** Host names (`host` or `host:port`) requests may name beside the listen address; `*` for any (host-check.ts). */
  allowedHosts?: readonly string[];
  /** The web dashboard at `/` (ui/dashboard.ts); false leaves only the API (`serve --no-ui`). */
  dashboard?: DashboardOptions | false;
}

/**
 * The REST API over the embedded engine. Every route comes from the route table; this file
 * only moves fields from HTTP into the engine and answers back.
 */
export function buildApp({ engine, logRequests = false, logSink, bodyBounds, allowedHosts, dashboard = {} }: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: logRequests ? requestLogger(logSink) : false,
    bodyLimit: BODY_MAX_BYTES,
    // No limit on a whole request: long-polls hold it for up to 30 s and uploads on slow lines take
    // what they take. A body that stalls, trickles or runs too long is closed by the body guard.
    requestTimeout: 0,
    // Requests that arrive while shutting down are answered 503 below, in the service's error body.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // A request without Host is answered by the host check, in the service's error body.
    http: { requireHostHeader: false },
  });
  // The body clocks start first: an answer given before the body is read (a 421 here) still bounds how long its rest may take.
  guardRequestBodies(app, bodyBounds);
  guardHostHeader(app, allowedHosts);
  // Many clients send `Content-Type: application/json` on every request, DELETE included, with no
  // body: an empty body is no body, not malformed JSON (JSON endpoints still say they need one).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) done(null, undefined);
    else parseJson(request, body as string, done);
  });
  // JSON routes also take their fields as a urlencoded form (request-input.ts types them).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseUrlEncodedForm(body as string));
    } catch (error) {
      done(error as Error);
    }
  });

  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    const failure = forCaller(toServiceError(error), request.caller !== null);
    if (failure.code === 'internal') request.log.error({ err: error }, 'internal error');
    if (failure.retryAfterSeconds !== undefined) reply.header('retry-after', String(failure.retryAfterSeconds));
    reply.status(failure.status).send(failure.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const methods = methodsForPath(path);
    const failure = notFound(methods.length > 0
      ? `No endpoint ${request.method} ${path}: that path takes ${methods.join(', ')}.`
      : `No endpoint ${request.method} ${path}. See GET /api/openapi.json for the API.`);
    reply.status(404).send(failure.toBody());
  });

  // Who is calling, found by the onRequest hook: a property every request has from the start
  // (a WeakMap keyed by request would give the collector an ephemeron per request).
  app.decorateRequest('caller', null);
  // @fastify/multipart gives every reply of the context it is registered in an async onResponse
  // hook (a promise or two per request, run under load for nothing): only routes that take a body
  // are registered under it. A GET or HEAD request's body is never parsed, whatever it is.
  const takesBody = (route: RouteDef) => route.method !== 'GET';
  app.register(async (reads) => registerRoutes(reads, engine, (route) => !takesBody(route)));
  app.register(async (writes) => {
    await writes.register(fastifyMultipart, { throwFileSizeLimit: true });
    registerRoutes(writes, engine, takesBody);
  });

  // Shutting down: held long-polls answer now with their job's current state, and every answer
  // closes its connection, so a kept-alive client cannot hold the server open for its idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    engine.jobs.releaseWaiters();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? new ServiceError({ status: 503, code: 'unavailable', message: 'Service unavailable: the server is shutting down.', hint: 'Try again in a moment, or at another instance.' }) : undefined);
  });
  // A callback hook, not an async one: it runs on every reply, and a promise per reply adds up.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.get('/api/openapi.json', (request, reply) => {
    reply.type('application/json; charset=utf-8').send(openApiJson(requestBaseUrl(request)));
  });
  registerCdn(app, cdnDir(engine.filesDir));
  if (dashboard !== false) registerDashboard(app, engine, dashboard);
  return app;
}

/** Requests to an open route whose key could not be checked (the store is away): answered as without a key. */
const uncheckedKeys = new WeakSet<FastifyRequest>();

/** The routes of the route table that `include` picks, on `api`. */
function registerRoutes(api: FastifyInstance, engine: Engine, include: (route: RouteDef) => boolean): void {
  for (const name of Object.keys(routes) as RouteName[]) {
    const route = routes[name];
    if (!include(route)) continue;
    for (const url of [route.path, ...(route.aliases ?? [])]) {
      api.route({
        method: route.method,
        url,
        // Authenticate before the body is parsed, so a caller without a valid key hears 401 rather
        // than a complaint about its body. Only a form body may still bring the key along.
        onRequest: (request, _reply, done) => {
          const key = requestApiKey(request);
          const keyMayBeInForm = route.encoding === 'multipart' || (route.encoding === 'json' && hasFormBody(request));
          // An open route (health) takes a call without a key; a key that is sent must be valid.
          const open = route.auth === false && key === undefined;
          if (open || (key === undefined && keyMayBeInForm)) {
            done();
            return;
          }
          engine.authenticate(key).then(
            (caller) => {
              request.caller = caller;
              done();
            },
            (error: Error) => {
              // An open route (health) answers as to a caller without a key when the key cannot be
              // checked: a store outage is what health is there to report, not a reason to fail.
              if (route.auth === false && error instanceof ServiceError && error.code === 'store_unavailable') {
                uncheckedKeys.add(request);
                done();
              } else done(error);
            },
          );
        },
        handler: async (request, reply) => {
          const { input, formApiKey } = await collectInput(request, route);
          let user = request.caller;
          if (user === null) {
            const key = requestApiKey(request, formApiKey);
            if (route.auth === false && (key === undefined || uncheckedKeys.has(request))) {
              reply.status(route.status ?? 200).send(await engine.handlePublic(name, input));
              return;
            }
            user = await engine.authenticate(key);
          }
          // The address the caller used (checked), so URLs of stored files (audio_url) point back at this server.
          const body = await engine.handle(name, input, user, lazyRequestSignal(request.raw, reply.raw), requestBaseUrl(request)).catch((error: unknown) => {
            // A key checked before the store went away: an open route still gives its public answer.
            if (route.auth === false && error instanceof ServiceError && error.code === 'store_unavailable') return engine.handlePublic(name, input);
            throw error;
          });
          reply.status(route.status ?? 200).send(body);
        },
      });
    }
  }
}
