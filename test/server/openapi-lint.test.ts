import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, pathParams } from '../../src/core/route.js';
import { routeNames, routes, type RouteName } from '../../src/core/routes.js';
import { errorBody } from '../../src/core/schemas/error-body.js';
import { createHarness, type EngineHarness } from '../support/engines.js';

interface Operation {
  operationId: string;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

describe('the published OpenAPI document', () => {
  let harness: EngineHarness;
  let close: () => Promise<void>;
  let document: Document;
  let source: string;
  beforeAll(async () => {
    // Starter gets one network lookup a day here, so a second one shows the 429.
    ({ harness, close } = await createHarness('remote', { planOverrides: { starter: { cmsLookupsPerDay: 1 } } }));
    source = await (await fetch(`${harness.baseUrl}/api/openapi.json`)).text();
    document = JSON.parse(source) as Document;
  });
  afterAll(() => close());

  const operationOf = (name: RouteName): Operation => {
    const route = routes[name];
    return document.paths[route.path.replace(/:([A-Za-z_]+)/g, '{$1}')]![route.method.toLowerCase()]!;
  };
  const key = async (plan: 'starter' | 'professional' | 'ultimate' | 'none', scopes: string[] = ['generations']) =>
    (await harness.engine.identity.createUserWithKey(plan, scopes as never)).key;

  /** Sends a request to a route with placeholder path values and the given key and body. */
  const send = (name: RouteName, apiKey: string | undefined, body?: string) => {
    const route = routes[name];
    const path = fillPath(route.path, Object.fromEntries(pathParams(route.path).map((param) => [param, 'x'])));
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${harness.baseUrl}${path}`, { method: route.method, headers, body });
  };

  /** The answer's status is one the document lists for the route, and a 4xx carries the error body. */
  const expectDocumented = async (name: RouteName, response: Response) => {
    const documented = Object.keys(operationOf(name).responses);
    expect(documented, `${name} answered ${response.status}`).toContain(String(response.status));
    if (response.status >= 400) expect(errorBody.safeParse(await response.json()).success, name).toBe(true);
    else await response.body?.cancel();
  };

  it('has no error and no warning under Redocly\'s recommended ruleset', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: `${harness.baseUrl}/api/openapi.json`, config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`)).toEqual([]);
  });

  it("says which of a video's figures may be unknown (null): counts, length, dates", () => {
    const schema = operationOf('video.info').responses['200']!.content!['application/json']!.schema as { properties: Record<string, { type?: unknown; anyOf?: unknown }> };
    const nullable = (field: string) => JSON.stringify(schema.properties[field]).includes('"null"');
    for (const field of ['view_count', 'like_count', 'comment_count', 'duration', 'upload_date', 'published_at_exact']) expect(nullable(field), field).toBe(true);
    expect(nullable('id')).toBe(false);
  });

  it('names the address it was requested at as its server', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: harness.baseUrl })]);
  });

  it('documents every route, each 4xx with the error body and each 429 with Retry-After', () => {
    for (const name of routeNames) {
      const operation = operationOf(name);
      expect(operation.operationId).toBe(name);
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((status) => /^4\d\d$/.test(status)), name).toBe(true);
      for (const status of statuses.filter((status) => /^[45]\d\d$/.test(status))) {
        expect(operation.responses[status]!.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (operation.responses['429']) expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
    }
  });

  it('lists what every route answers without a key, with a plan-less key, and to placeholder input', async () => {
    const none = await key('none');
    const ultimate = await key('ultimate');
    for (const name of routeNames) {
      const withBody = routes[name].method === 'GET' ? undefined : '{}';
      const missing = await send(name, undefined, withBody);
      await expectDocumented(name, missing);
      await expectDocumented(name, await send(name, none, withBody));
      await expectDocumented(name, await send(name, ultimate, withBody));
    }
  });

  it('lists 401 for a missing key and 413 for an oversize body', async () => {
    const missing = await send('folders.list', undefined);
    expect(missing.status).toBe(401);
    await expectDocumented('folders.list', missing);
    const oversize = await send('folders.create', await key('ultimate'), JSON.stringify({ name: 'x'.repeat(1_100_000) }));
    expect(oversize.status).toBe(413);
    await expectDocumented('folders.create', oversize);
  });

  it('lists the 429 of a rate-limited route, which carries Retry-After as documented', async () => {
    const starter = await key('starter');
    expect((await send('cms.networks', starter)).status).toBe(200);
    const refused = await send('cms.networks', starter);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectDocumented('cms.networks', refused);
    expect(operationOf('cms.networks').responses['429']!.headers).toEqual({ 'Retry-After': { $ref: '#/components/headers/Retry-After' } });
  });

  it('describes query arrays as comma-separated and multipart files as binary parts', () => {
    const search = document.paths['/api/terminated-channels']!.get as unknown as { parameters: Record<string, unknown>[] };
    expect(search.parameters.find((parameter) => parameter.name === 'languages')).toMatchObject({ in: 'query', style: 'form', explode: false });
    const clone = document.paths['/api/voices/clone']!.post as unknown as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> }; encoding: Record<string, unknown> }> };
    };
    const form = clone.requestBody.content['multipart/form-data']!;
    expect(form.schema.properties.audioFile).toMatchObject({ type: 'string', contentMediaType: 'application/octet-stream' });
    expect(form.encoding).toHaveProperty('audioFile');
  });
});
