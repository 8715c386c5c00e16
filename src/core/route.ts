/** What one endpoint is: method, path, encoding, and the schemas of its input and answer. */
import type { z } from 'zod';
import { badRequest } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** How the non-path fields travel: none, query string, JSON body, or multipart form. */
export type Encoding = 'none' | 'query' | 'json' | 'multipart';

/** The feature an endpoint belongs to: OpenAPI tag, and the unit the engine loads on demand. */
export type RouteTag =
  | 'system' | 'voices' | 'generation' | 'jobs' | 'channels' | 'download' | 'workspace'
  | 'alerts' | 'research' | 'analysis' | 'collabs' | 'webhooks';

/** What a call does to stored state: `read` changes no table (and spends no quota); `write` may. */
export type RouteEffect = 'read' | 'write';

export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  tag: RouteTag;
  /** What a call does (`mcp --read-only` offers only `read` routes); a GET that stores verdicts or spends a quota is a `write`. */
  effect: RouteEffect;
  method: HttpMethod;
  path: string;
  encoding: Encoding;
  /** All fields of the request: path parameters plus query, body or form fields. */
  input: I;
  response: O;
  summary: string;
  /** Success status (200 unless said). */
  status?: number;
  /** Multipart file fields and the size each may reach; enforced while streaming. */
  files?: Record<string, { maxBytes: number }>;
  /** Other paths answering the same request (the hosted service's provider name). */
  aliases?: string[];
  /** Holds the request open (long-poll); clients allow for `wait_seconds`. */
  longPoll?: boolean;
  /** False for the few endpoints that work without a key. */
  auth?: boolean;
  /** True when a key without an active subscription (plan `none`) may call it (free previews). */
  openToAllPlans?: boolean;
  /** A scope the key must carry beyond a valid plan (the spec: download needs `generations`). */
  scope?: 'generations';
  /** An endpoint of ours that the hosted service does not have (documented as an extension). */
  extension?: boolean;
}

type RouteSpec<I extends z.ZodType, O extends z.ZodType> = Omit<RouteDef<I, O>, 'tag' | 'effect'> & { effect?: RouteEffect };

/**
 * One endpoint of a part of the table; the part gives it its tag (routePart). Its effect is `read`
 * for a GET and `write` otherwise unless the route says what it does.
 */
export function defineRoute<I extends z.ZodType, O extends z.ZodType>(route: RouteSpec<I, O>): Omit<RouteDef<I, O>, 'tag'> {
  return { ...route, effect: route.effect ?? (route.method === 'GET' ? 'read' : 'write') };
}

/** A part of the route table (routes/<tag>.ts): its endpoints, each tagged with the part's tag. */
export function routePart<const T extends Record<string, Omit<RouteDef, 'tag'>>>(tag: RouteTag, part: T): { [N in keyof T]: T[N] & { tag: RouteTag } } {
  return Object.fromEntries(Object.entries(part).map(([name, route]) => [name, { tag, ...route }])) as { [N in keyof T]: T[N] & { tag: RouteTag } };
}

/** `:name` segments of a path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);
}

/**
 * Fills `:name` segments from the input, URL-encoded. A missing segment is the caller's bad input,
 * answered as the engine answers it (400 naming the field), not a crash of the client.
 */
export function fillPath(path: string, input: Record<string, unknown>): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = input[name];
    if (value === undefined || value === null) throw badRequest(`Invalid request: ${name}: is required.`);
    if (String(value).trim() === '') throw badRequest(`Invalid request: ${name}: must not be empty.`);
    return encodeURIComponent(String(value));
  });
}

/** Whether retrying the request cannot do the work twice. */
export function isIdempotent(route: RouteDef, input: Record<string, unknown>): boolean {
  if (route.method === 'GET' || route.method === 'DELETE') return true;
  return typeof input.idempotency_key === 'string' && input.idempotency_key.length > 0;
}
