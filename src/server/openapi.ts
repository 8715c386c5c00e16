/**
 * The published contract: an OpenAPI 3.1 document derived from the route table — schemas,
 * encodings, and every status each operation can answer with the shared error body.
 */
import type { RouteTag } from '../core/route.js';
import { routeNames, routes } from '../core/routes.js';
import { errorBody } from '../core/schemas/error-body.js';
import { eventSchemas } from '../core/schemas/events.js';
import { VERSION } from '../core/version.js';
import { jsonSchema, openApiPath, operationFor } from './openapi-operation.js';

const tagDescriptions: Record<RouteTag, string> = {
  system: 'Service health.',
  voices: 'Stealth and alt voice clones (Professional or Ultimate plan).',
  generation: 'Text-to-speech generation jobs (Professional or Ultimate plan).',
  jobs: 'Polling generation and video-analysis jobs.',
  channels: 'Channel processing jobs.',
  download: 'Video, audio and subtitle downloads (key scope `generations`).',
  workspace: 'Folders, saved channels and channel resolution.',
  alerts: 'Alerts on channels that match your filters.',
  research: 'Monetization, managed-network (CMS) and terminated-channel research.',
  analysis: 'AI analysis of a video.',
  collabs: 'Collaborations between channels.',
  webhooks: 'Events and the signed webhooks that deliver them (tubekit extensions).',
};

/**
 * The document as JSON text. Everything but `servers` depends only on the build, so it is made and
 * serialized once per process (building it takes milliseconds of zod-to-JSON-Schema work);
 * `servers` (last) names `baseUrl`, the address it was requested at, so a generated client calls
 * this server.
 */
export function openApiJson(baseUrl: string): string {
  const built = builtJson();
  return `${built.slice(0, -1)},"servers":${JSON.stringify(servers(baseUrl))}}`;
}

/**
 * The document without `servers`: for the embedded engine (`tubekit api GET /api/openapi.json`
 * without serve), which no client reaches over HTTP.
 */
export function openApiDocument(): Record<string, unknown> {
  return JSON.parse(builtJson()) as Record<string, unknown>;
}

let buildOnly: string | undefined;

function builtJson(): string {
  buildOnly ??= JSON.stringify(buildDocument());
  return buildOnly;
}

function servers(baseUrl: string) {
  return [{ url: baseUrl, description: 'The server that published this document' }];
}

function buildDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const name of routeNames) {
    const route = routes[name];
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationFor(name) };
  }
  const usedTags = new Set(routeNames.map((name) => routes[name].tag));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Voice, Channel Research and Video Tools API (tubekit embedded engine)',
      version: VERSION,
      description:
        'Every failure answers with the `Error` body and its HTTP status; each operation lists the statuses it can answer. ' +
        'A 429 carries `Retry-After` (seconds) and ends its `error` with "Try again in N s."',
      license: { name: 'GPL-3.0-or-later', identifier: 'GPL-3.0-or-later' },
    },
    tags: [...usedTags].map((tag) => ({ name: tag, description: tagDescriptions[tag] })),
    security: [{ bearer: [] }, { apiKeyQuery: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <key>`.' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'The key as `?api_key=`, as the hosted service accepts it.' },
      },
      schemas: { Error: jsonSchema(errorBody, 'output'), ...eventComponents() },
      headers: {
        'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
      },
    },
    paths,
    webhooks: eventWebhooks(),
  };
}

/** Component name of each event type's schema: `alert.triggered` → `AlertTriggeredEvent`. */
const eventComponentName = (type: string) => `${type.split(/[._]/).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}Event`;

function eventComponents(): Record<string, unknown> {
  return Object.fromEntries(Object.entries(eventSchemas).map(([type, schema]) => [eventComponentName(type), jsonSchema(schema, 'output')]));
}

/**
 * What a webhook endpoint receives (OpenAPI 3.1 `webhooks`): one POST per event, signed per the
 * Standard Webhooks specification; the same body is what GET /api/events lists.
 */
function eventWebhooks(): Record<string, unknown> {
  const header = (description: string) => ({ required: true, schema: { type: 'string' }, description });
  return Object.fromEntries(
    Object.keys(eventSchemas).map((type) => [
      type,
      {
        post: {
          operationId: `receive${eventComponentName(type)}`,
          summary: `The ${type} event`,
          description: 'Sent to each enabled endpoint subscribed to it; retried with the same webhook-id until a 2xx answer (at least once: deduplicate by id).',
          parameters: [
            { name: 'webhook-id', in: 'header', ...header('The event id, the same on every attempt.') },
            { name: 'webhook-timestamp', in: 'header', ...header('Seconds since the epoch when this attempt was signed.') },
            { name: 'webhook-signature', in: 'header', ...header('`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the base64 part of the endpoint\'s `whsec_` secret.') },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventComponentName(type)}` } } } },
          responses: { '2XX': { description: 'Received: not sent again.' }, default: { description: 'Anything else (or no answer in 10 s) is retried on the schedule.' } },
        },
      },
    ]),
  );
}
