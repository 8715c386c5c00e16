import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ServiceError, notFound } from '../core/errors.js';
import { routes, type RouteName } from '../core/routes.js';
import type { Engine } from '../engine/engine.js';
import type { Principal } from '../engine/identity/identity.js';
import { cdnDir } from '../engine/paths.js';
import { requestApiKey } from './auth.js';
import { registerCdn } from './cdn.js';
import { answerFrameworkError, toServiceError } from './error-mapping.js';
import { openApiDocument } from './openapi.js';
import { BODY_MAX_BYTES, collectInput, hasFormBody } from './request-input.js';
import { parseUrlEncodedForm } from './urlencoded-form.js';
import { requestLogger, type LogSink } from './request-log.js';
import { lazyRequestSignal } from './request-signal.js';
import { guardStalledBodies } from './stall-guard.js';

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
  /** Seconds a request body may go without a byte before it is answered 408 and closed. */
  bodyStallSeconds?: number;
}

/**
 * The REST API over the embedded engine. Every route comes from the route table; this file
 * only moves fields from HTTP into the engine and answers back.
 */
export function buildApp({ engine, logRequests = false, logSink, bodyStallSeconds }: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: logRequests ? requestLogger(logSink) : false,
    bodyLimit: BODY_MAX_BYTES,
    // No limit on a whole request: long-polls hold it for up to 30 s and uploads on slow lines take
    // what they take. A body that stops arriving is closed by the stall guard instead.
    requestTimeout: 0,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors: answerFrameworkError,
  });
  guardStalledBodies(app, bodyStallSeconds);
  app.register(fastifyMultipart, { throwFileSizeLimit: true });
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

  app.setErrorHandler((error: FastifyError | ServiceError, _request, reply) => {
    const failure = toServiceError(error);
    if (failure.retryAfterSeconds !== undefined) reply.header('retry-after', String(failure.retryAfterSeconds));
    reply.status(failure.status).send(failure.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const failure = notFound(`No endpoint ${request.method} ${request.url.split('?')[0]}. See GET /api/openapi.json for the API.`);
    reply.status(404).send(failure.toBody());
  });

  // Who is calling, found by the onRequest hook: a property every request has from the start
  // (a WeakMap keyed by request would give the collector an ephemeron per request).
  app.decorateRequest('caller', null);
  app.register(async (api) => {
    for (const name of Object.keys(routes) as RouteName[]) {
      const route = routes[name];
      for (const url of [route.path, ...(route.aliases ?? [])]) {
        api.route({
          method: route.method,
          url,
          // Authenticate before the body is parsed, so a caller without a valid key hears 401 rather
          // than a complaint about its body. Only a form body may still bring the key along.
          onRequest: (request, _reply, done) => {
            const key = requestApiKey(request);
            const keyMayBeInForm = route.encoding === 'multipart' || (route.encoding === 'json' && hasFormBody(request));
            try {
              if (key !== undefined || !keyMayBeInForm) request.caller = engine.authenticate(key);
            } catch (error) {
              done(error as Error);
              return;
            }
            done();
          },
          handler: async (request, reply) => {
            const { input, formApiKey } = await collectInput(request, route);
            const user = request.caller ?? engine.authenticate(requestApiKey(request, formApiKey));
            // The address the caller used, so URLs of stored files (audio_url) point back at this server.
            const baseUrl = `${request.protocol}://${request.host}`;
            const body = await engine.handle(name, input, user, lazyRequestSignal(request.raw, reply.raw), baseUrl);
            reply.status(route.status ?? 200).send(body);
          },
        });
      }
    }
  });

  // Shutting down: held long-polls answer now with their job's current state, and every answer
  // closes its connection, so a kept-alive client cannot hold the server open for its idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    engine.jobs.releaseWaiters();
  });
  // A callback hook, not an async one: it runs on every reply, and a promise per reply adds up.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  app.get('/api/openapi.json', async (request) => openApiDocument(`${request.protocol}://${request.host}`));
  registerCdn(app, cdnDir(engine.dataDir));
  return app;
}
