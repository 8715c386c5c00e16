/**
 * Every JSON body route refuses a field it does not take with a 400 that names it (issue 23: a
 * client that named the alert type `type` silently made an outlier alert), on both engines.
 */
import { expect, it } from 'vitest';
import { pathParams } from '../../src/core/route.js';
import { routeNames, routes, type RouteName } from '../../src/core/routes.js';
import { describeEachEngine, failure } from '../support/engines.js';

const jsonRoutes = routeNames.filter((name) => routes[name].encoding === 'json');

describeEachEngine('JSON bodies', (get, variant) => {
  it('covers the JSON routes the spec lists, and our extensions with JSON bodies', () => {
    const paths = (extension: boolean) => jsonRoutes.filter((name) => Boolean(routes[name].extension) === extension).map((name) => routes[name].path).sort();
    expect(paths(true)).toEqual(['/api/webhooks', '/api/webhooks/:id']);
    expect(paths(false)).toEqual([
      '/api/alerts',
      '/api/alerts/:id',
      '/api/analyze-video',
      '/api/channels/resolve',
      '/api/download-video',
      '/api/folders',
      '/api/folders/:id',
      '/api/process-channel',
      '/api/saved-channels',
      '/api/saved-channels/move',
    ]);
  });

  it('refuses an unknown field with 400 naming it, and changes nothing', async () => {
    const user = get().as('ultimate');
    for (const name of jsonRoutes) {
      const path = Object.fromEntries(pathParams(routes[name].path).map((param) => [param, 1]));
      const error = await failure(user.call(name as RouteName, { ...path, colour: 'blue' } as never));
      expect(error.status, name).toBe(400);
      expect(error.message, name).toMatch(/unknown field colour; the body takes /);
      // Path parameters are not body fields: the list leaves them out.
      expect(error.message, name).not.toMatch(/the body takes id\b|, id\b/);
    }
    expect((await user.call('folders.list', {})).count).toBe(0);
    expect((await user.call('alerts.list', {})).count).toBe(0);
  });

  it.runIf(variant.kind === 'remote')('over HTTP, still takes the key as an api_key body field beside the fields', async () => {
    const harness = get();
    const key = (await harness.engine.identity.createUserWithKey('starter', [])).key;
    const response = await fetch(`${harness.baseUrl}/api/folders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Keyed', api_key: key }),
    });
    expect(response.status).toBe(201);
    const refused = await fetch(`${harness.baseUrl}/api/folders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Typo', colour: 'blue' }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatch(/unknown field colour; the body takes name/);
  });
}, { postgres: true });
