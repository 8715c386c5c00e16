/**
 * One OpenAPI operation from one route of the route table: its parameters and their encoding,
 * its request body (JSON or multipart), and every answer it can give, success and errors.
 */
import * as z from 'zod';
import { errorAnswers } from '../core/route-statuses.js';
import { pathParams, type RouteDef } from '../core/route.js';
import { routes, type RouteName } from '../core/routes.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[]; type?: unknown };

export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/api/folders/:id` → `/api/folders/{id}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

export const errorSchemaRef = { $ref: '#/components/schemas/Error' };
export const retryAfterRef = { $ref: '#/components/headers/Retry-After' };

export function operationFor(name: RouteName): Record<string, unknown> {
  const route: RouteDef = routes[name];
  const params = pathParams(route.path);
  const input = jsonSchema(route.input, 'input');
  const required = input.required ?? [];
  const fields = Object.entries(input.properties ?? {});
  const operation: Record<string, unknown> = {
    operationId: name,
    summary: route.summary,
    tags: [route.tag],
    parameters: fields
      .filter(([field]) => params.includes(field) || route.encoding === 'query')
      .map(([field, schema]) => parameter(field, schema, params.includes(field) ? 'path' : 'query', required.includes(field))),
  };
  const notes = operationNotes(route);
  if (notes) operation.description = notes;
  if (route.scope) operation.security = [{ bearer: [route.scope] }, { apiKeyQuery: [route.scope] }];
  // An open route: a key is optional (`{}` is "no key").
  if (route.auth === false) operation.security = [{}, { bearer: [] }, { apiKeyQuery: [] }];
  const bodyFields = Object.fromEntries(fields.filter(([field]) => !params.includes(field)));
  const bodyRequired = required.filter((field) => !params.includes(field));
  if (route.encoding === 'json') {
    // The hosted documentation sends every POST as form fields: a JSON route takes those too, list
    // and object fields as JSON text (lists also as repeated fields), the key as an api_key field.
    const form = { type: 'object', properties: { ...bodyFields, api_key: apiKeyField }, required: bodyRequired, additionalProperties: false };
    const jsonText = Object.fromEntries(
      Object.entries(bodyFields).filter(([, schema]) => schema.type === 'object').map(([field]) => [field, { contentType: 'application/json' }]),
    );
    operation.requestBody = {
      required: true,
      // A body field the route does not take is refused (jsonBody), and the contract says so.
      content: {
        'application/json': { schema: { type: 'object', properties: bodyFields, required: bodyRequired, additionalProperties: false } },
        'application/x-www-form-urlencoded': { schema: form, ...(Object.keys(jsonText).length ? { encoding: jsonText } : {}) },
        'multipart/form-data': { schema: form, ...(Object.keys(jsonText).length ? { encoding: jsonText } : {}) },
      },
    };
  }
  if (route.encoding === 'multipart') operation.requestBody = multipartBody(route, bodyFields, bodyRequired);
  operation.responses = responses(name, route);
  return operation;
}

/** Query arrays travel comma-separated (`languages=en,de`): form style, not exploded. */
function parameter(name: string, schema: JsonSchema, location: 'path' | 'query', required: boolean) {
  const param: Record<string, unknown> = { name, in: location, required: location === 'path' || required, schema };
  if (location === 'query' && schema.type === 'array') Object.assign(param, { style: 'form', explode: false });
  return param;
}

const apiKeyField = { type: 'string', description: 'The API key, for clients that cannot set the Authorization header.' };

function multipartBody(route: RouteDef, fields: Record<string, JsonSchema>, required: string[]) {
  const files = route.files ?? {};
  const properties: Record<string, unknown> = { ...fields };
  for (const [field, { maxBytes }] of Object.entries(files)) {
    properties[field] = {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: `The audio sample, at most ${Math.round(maxBytes / (1024 * 1024))} MB.`,
    };
  }
  // The hosted service takes the key inside the form too; the server accepts it there.
  properties.api_key = apiKeyField;
  const encoding = Object.fromEntries(Object.keys(files).map((field) => [field, { contentType: 'audio/*, application/octet-stream' }]));
  return {
    required: true,
    content: { 'multipart/form-data': { schema: { type: 'object', properties, required }, ...(Object.keys(encoding).length ? { encoding } : {}) } },
  };
}

function responses(name: RouteName, route: RouteDef): Record<string, unknown> {
  const answers: Record<string, unknown> = {
    [String(route.status ?? 200)]: {
      description: route.status === 201 ? 'Created' : 'Success',
      content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
    },
  };
  for (const answer of errorAnswers(name)) {
    answers[String(answer.status)] = {
      description: answer.description,
      ...(answer.retryAfter ? { headers: { 'Retry-After': retryAfterRef } } : {}),
      content: { 'application/json': { schema: errorSchemaRef } },
    };
  }
  answers.default = { description: 'Not expected: a 503 while the server shuts down; any other status is a fault to report.' };
  return answers;
}

function operationNotes(route: RouteDef): string | undefined {
  const notes: string[] = [];
  if (route.longPoll) notes.push('Long-poll: with `wait_seconds` the request is held until the job changes state or the wait ends; allow for it in client timeouts.');
  if (route.scope) notes.push(`Needs a key with the \`${route.scope}\` scope.`);
  if (route.extension) notes.push('An extension of tubekit\'s: the hosted service has no such endpoint.');
  if (route.aliases?.length) notes.push(`Also answered at ${route.aliases.map((alias) => `\`${openApiPath(alias)}\``).join(', ')} (the hosted service's provider name).`);
  return notes.length ? notes.join('\n\n') : undefined;
}
