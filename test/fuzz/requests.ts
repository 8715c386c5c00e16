/**
 * Random HTTP requests for one route of the route table, built from what the table says about it:
 * method, path parameters, encoding, declared fields and file fields. Most are wrong on purpose
 * (types, sizes, content types, broken bodies); some are close enough to reach the handler.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { pathParams, type RouteDef } from '../../src/core/route.js';
import { wavSample } from '../support/audio-fixtures.js';
import { asText, fieldsFor, pathSegment, textValue, valueFor } from './arbitraries.js';

export interface FuzzRequest {
  method: string;
  /** Path and query, to append to the server's base URL. */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Keys the suite holds, by who they belong to. */
export interface FuzzKeys {
  ultimate: string;
  starter: string;
  none: string;
}

type Credentials = { key?: string; at: 'header' | 'query' | 'form' };

function credentials(keys: FuzzKeys): fc.Arbitrary<Credentials> {
  const key = fc.oneof(
    { arbitrary: fc.constant(keys.ultimate), weight: 10 },
    { arbitrary: fc.constantFrom(keys.starter, keys.none), weight: 2 },
    { arbitrary: fc.constantFrom(undefined, '', 'tk_wrong', `${keys.ultimate}x`, 'Bearer'), weight: 1 },
  );
  const at = fc.oneof({ arbitrary: fc.constant('header' as const), weight: 6 }, { arbitrary: fc.constantFrom('query' as const, 'form' as const), weight: 1 });
  return fc.record({ key, at });
}

/** A route's declared fields (its input's zod object shape). */
function declaredShape(route: RouteDef): Record<string, z.ZodType> {
  return (route.input as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
}

// Path and query values stay short: a request line past Node's header limit is refused by Node
// itself (431, no body), before the service sees it.
const QUERY_VALUE_MAX = 1_000;

function queryString(fields: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const item of value.slice(0, 5)) params.append(name, asText(item, QUERY_VALUE_MAX));
    else params.append(name, asText(value, QUERY_VALUE_MAX));
  }
  return params.toString();
}

const brokenQuery = fc.constantFrom('%ZZ=1', '&&&=&', 'a[b][c]=1', 'wait_seconds=1&wait_seconds=2', '=x', 'page=%00', 'q=%F0%9F');

const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';

type FormFile = { name: string; filename: string; data: Buffer };

function multipartBody(fields: Record<string, unknown>, files: FormFile[], apiKey?: string): Buffer {
  const parts: Buffer[] = [];
  const all = apiKey === undefined ? fields : { ...fields, api_key: apiKey };
  for (const [name, value] of Object.entries(all)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${asText(value)}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: audio/wav\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

const oneSecondWav = wavSample(1);
const fileData = fc.oneof(
  fc.constant(oneSecondWav),
  fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(Buffer.concat([oneSecondWav.subarray(0, 44), Buffer.alloc(10)])),
  fc.constant(Buffer.alloc(0)),
);

/** The route's file fields, mostly; sometimes a file where a text field (or nothing) belongs. */
function filesFor(route: RouteDef, fieldNames: string[]): fc.Arbitrary<FormFile[]> {
  const fileFields = Object.keys(route.files ?? {});
  const filename = fc.oneof(fc.constantFrom('me.wav', 'a.mp3', '', '../../x.wav', 'é.wav'), textValue.map((text) => text.slice(0, 50).replace(/["\r\n]/g, '_')));
  const stray = fc.array(fc.record({ name: fc.constantFrom('file', ...fieldNames), filename, data: fileData }), { minLength: 1, maxLength: 2 });
  if (fileFields.length === 0) return fc.oneof({ arbitrary: fc.constant([]), weight: 4 }, { arbitrary: stray, weight: 1 });
  const own = fc.array(fc.record({ name: fc.constantFrom(...fileFields), filename, data: fileData }), { maxLength: 2 });
  return fc.oneof({ arbitrary: own, weight: 4 }, { arbitrary: stray, weight: 1 });
}

type Body = { headers: Record<string, string>; body?: string | Buffer };

function multipartBodies(route: RouteDef, fields: fc.Arbitrary<Record<string, unknown>>, formKey: fc.Arbitrary<string | undefined>): fc.Arbitrary<Body> {
  const names = Object.keys(declaredShape(route));
  const form = fc.tuple(fields, filesFor(route, names), formKey).map(([values, files, key]) => multipartBody(values, files, key));
  const typed = (contentType: string) => (body: string | Buffer): Body => ({ headers: { 'content-type': contentType }, body });
  const proper = `multipart/form-data; boundary=${boundary}`;
  return fc.oneof(
    { arbitrary: form.map(typed(proper)), weight: 8 },
    // Cut anywhere: a part terminated early, a header half sent.
    { arbitrary: fc.tuple(form, fc.double({ min: 0, max: 1, noNaN: true })).map(([body, at]) => typed(proper)(body.subarray(0, Math.floor(body.length * at)))), weight: 3 },
    { arbitrary: form.map(typed('multipart/form-data')), weight: 1 },
    { arbitrary: form.map(typed('multipart/form-data; boundary=')), weight: 1 },
    { arbitrary: form.map(typed(`multipart/form-data; boundary=${'b'.repeat(300)}`)), weight: 1 },
    { arbitrary: form.map(typed('multipart/form-data; boundary=another')), weight: 1 },
    { arbitrary: fc.string().map(typed(proper)), weight: 1 },
    { arbitrary: fields.map((values) => typed('application/json')(JSON.stringify(values))), weight: 1 },
    { arbitrary: fields.map((values) => typed('application/x-www-form-urlencoded')(queryString(values))), weight: 1 },
    { arbitrary: fc.constant({ headers: {} }), weight: 1 },
  );
}

function jsonBodies(fields: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Body> {
  const json = (text: string): Body => ({ headers: { 'content-type': 'application/json' }, body: text });
  return fc.oneof(
    { arbitrary: fields.map((values) => json(JSON.stringify(values))), weight: 10 },
    { arbitrary: fc.jsonValue({ maxDepth: 2 }).filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)).map((value) => json(JSON.stringify(value))), weight: 2 },
    { arbitrary: fc.constantFrom('', '{', '{"name": ', '{name: 1}', '{"a":1}}', '\u0000', '{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {"x": 1}}}', `{"name": "${'x'.repeat(1_100_000)}"}`).map(json), weight: 2 },
    { arbitrary: fc.string().map(json), weight: 1 },
    {
      arbitrary: fc.tuple(fields, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml', 'application/json; charset=utf-16', 'application/jsonx', ''))
        .map(([values, type]) => ({ headers: type ? { 'content-type': type } : {}, body: JSON.stringify(values) })),
      weight: 2,
    },
    { arbitrary: fc.constant({ headers: {} }), weight: 1 },
  );
}

/**
 * A long-poll on a job that never ends (nobody runs jobs here) is held for its whole wait, which is
 * the spec's behaviour (a wait past 30 s is cut to 30): the fuzz sends no wait or an invalid one.
 */
function shortWait(fields: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const { wait_seconds: _wait, ...rest } = fields;
  return fc.constantFrom(undefined, 0, '0', -1, '1e3', 'soon', 0.5).map((wait) => (wait === undefined ? rest : { ...rest, wait_seconds: wait }));
}

/**
 * Requests for `route` at `url` (its path or an alias). `known` are values of the fuzzed data dir
 * (ids of channels of its world) offered to every field whose schema accepts them.
 */
export function requestsFor(route: RouteDef, url: string, keys: FuzzKeys, known: unknown[] = []): fc.Arbitrary<FuzzRequest> {
  const params = pathParams(url);
  const shape = declaredShape(route);
  const segments = fc.tuple(
    ...params.map((name) =>
      fc.oneof(valueFor(shape[name], { known, textual: true }).map((value) => encodeURIComponent(asText(value, QUERY_VALUE_MAX).toWellFormed())), pathSegment),
    ),
  );
  const fields = fieldsFor(shape, { known, textual: route.encoding !== 'json' }).chain((values) => (route.longPoll ? shortWait(values) : fc.constant(values)));
  return fc.tuple(credentials(keys), segments, fields, fc.option(brokenQuery, { freq: 8 })).chain(([auth, values, queryFields, rawQuery]) => {
    let path = url;
    params.forEach((name, i) => (path = path.replace(`:${name}`, values[i]!)));
    const headers: Record<string, string> = auth.key !== undefined && auth.at === 'header' ? { authorization: `Bearer ${auth.key}` } : {};
    const query = new URLSearchParams(route.encoding === 'query' ? queryString(queryFields) : '');
    if (auth.key !== undefined && auth.at === 'query') query.set('api_key', auth.key);
    const search = [query.toString(), rawQuery ?? ''].filter(Boolean).join('&');
    const base = { method: route.method, url: search ? `${path}?${search}` : path };
    const formKey = fc.constant(auth.at === 'form' ? auth.key : undefined);
    const bodies: fc.Arbitrary<Body> =
      route.encoding === 'json' ? jsonBodies(fields) : route.encoding === 'multipart' ? multipartBodies(route, fields, formKey) : fc.constant({ headers: {} });
    return bodies.map((body) => ({ ...base, headers: { ...headers, ...body.headers }, body: body.body }));
  });
}
