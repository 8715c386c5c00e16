import { z } from 'zod';
import { routes } from '../core/routes.js';
import { pathParams } from '../core/route.js';
import { VERSION } from '../core/version.js';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;

/** An OpenAPI 3.1 document derived from the route table's schemas. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, route] of Object.entries(routes)) {
    const openPath = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const params = pathParams(route.path);
    const input = jsonSchema(route.input, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    const properties = input.properties ?? {};
    const parameters = Object.entries(properties)
      .filter(([field]) => params.includes(field) || route.encoding === 'query')
      .map(([field, schema]) => ({
        name: field,
        in: params.includes(field) ? 'path' : 'query',
        required: params.includes(field) || (input.required ?? []).includes(field),
        schema,
      }));
    const bodyFields = Object.fromEntries(Object.entries(properties).filter(([field]) => !params.includes(field)));
    const operation: Record<string, unknown> = {
      operationId: name,
      summary: route.summary,
      parameters,
      responses: {
        [String(route.status ?? 200)]: {
          description: 'Success',
          content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
        },
        default: { description: 'Error: {success: false, error, code, hint?}' },
      },
    };
    // A scoped endpoint: a key without the scope is answered 401.
    if (route.scope) operation.security = [{ bearer: [route.scope] }];
    if (route.encoding === 'json' || route.encoding === 'multipart') {
      const mediaType = route.encoding === 'json' ? 'application/json' : 'multipart/form-data';
      operation.requestBody = {
        required: true,
        content: { [mediaType]: { schema: { type: 'object', properties: bodyFields, required: (input.required ?? []).filter((field) => !params.includes(field)) } } },
      };
    }
    paths[openPath] = { ...paths[openPath], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Voice, Channel Research and Video Tools API (tubekit embedded engine)', version: VERSION },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
}
