/**
 * Every successful answer of the contract suite is parsed with its route's response schema in
 * strict mode — every object of it, loose ones included, refusing keys it does not list — so the
 * published OpenAPI document (derived from those schemas) cannot drift from what the server sends.
 */
import * as z from 'zod';
import { routes, type RouteName } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';

type Def = Record<string, unknown> & { type: string };

const strictCopies = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` with every object strict (records keep their open keys: those are data). */
export function strictly(schema: z.ZodType): z.ZodType {
  const known = strictCopies.get(schema);
  if (known) return known;
  const def = schema._zod.def as unknown as Def;
  const inner = (key: string) => strictly(def[key] as z.ZodType);
  let copy: z.ZodType;
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([key, value]) => [key, strictly(value)]));
      copy = schema.clone({ ...def, shape, catchall: z.never() } as never);
      break;
    }
    case 'array':
      copy = schema.clone({ ...def, element: inner('element') } as never);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      copy = schema.clone({ ...def, innerType: inner('innerType') } as never);
      break;
    case 'union':
      copy = schema.clone({ ...def, options: (def.options as z.ZodType[]).map(strictly) } as never);
      break;
    case 'record':
      copy = schema.clone({ ...def, valueType: inner('valueType') } as never);
      break;
    case 'pipe':
      copy = schema.clone({ ...def, in: inner('in'), out: inner('out') } as never);
      break;
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      copy = schema.clone({ ...def, getter: () => strictly(getter()) } as never);
      break;
    }
    case 'intersection':
      throw new Error('strict response schemas: an intersection cannot be made strict side by side; use .extend()');
    default:
      copy = schema;
  }
  strictCopies.set(schema, copy);
  return copy;
}

/** Throws, naming the route and each mismatch, unless `body` is exactly what the route's response schema documents. */
export function checkResponse(name: RouteName, body: unknown): void {
  const parsed = strictly(routes[name].response).safeParse(body);
  if (parsed.success) return;
  throw new Error(
    `The answer of ${name} (${routes[name].method} ${routes[name].path}) does not match its response schema (strict):\n` +
      `${z.prettifyError(parsed.error)}\nAnswer: ${JSON.stringify(body).slice(0, 1_500)}`,
  );
}

/** `service`, its successful answers checked with checkResponse. */
export function checkingResponses(service: Service): Service {
  return new Proxy(service, {
    get(target, property, receiver) {
      if (property !== 'call') return Reflect.get(target, property, receiver);
      const call: Service['call'] = async (name, input, options) => {
        const body = await target.call(name, input, options);
        checkResponse(name, body);
        return body;
      };
      return call;
    },
  });
}
