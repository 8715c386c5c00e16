import { describe, expect, it } from 'vitest';
import { errorAnswers } from '../../../src/core/route-statuses.js';
import { routeNames, routes, type RouteName } from '../../../src/core/routes.js';

const statusesOf = (name: RouteName) => [routes[name].status ?? 200, ...errorAnswers(name).map((answer) => answer.status)];

describe('the statuses each route documents', () => {
  it('include every status of the spec\'s per-endpoint lists', () => {
    const spec: [RouteName, number[]][] = [
      ['voices.stealth.list', [200, 401]],
      ['voices.stealth.clone', [200, 400, 401, 403]],
      ['voices.stealth.delete', [200, 401, 404]],
      ['voices.alt.list', [200, 401, 403]],
      ['voices.alt.clone', [200, 400, 401, 403, 502]],
      ['voices.alt.delete', [200, 401, 403, 404]],
      ['channels.process', [200, 400, 401, 429]],
      ['channels.processStatus', [200, 401, 404]],
      ['download', [200, 400, 401, 429]],
      ['folders.create', [201, 400, 403, 409]],
      ['folders.rename', [200, 404, 409]],
      ['folders.channels', [200, 404]],
      ['saved.add', [200, 400, 403]],
      ['alerts.create', [201, 400, 403]],
    ];
    for (const [name, statuses] of spec) expect(statusesOf(name), name).toEqual(expect.arrayContaining(statuses));
  });

  it('follow the route table: a key (sent or needed) means 401, a plan 403, a body 413, and a 429 always says Retry-After', () => {
    for (const name of routeNames) {
      const route = routes[name];
      const answers = errorAnswers(name);
      const has = (status: number) => answers.some((answer) => answer.status === status);
      // Every route refuses a bad key; an open one (auth: false) only when a key is sent.
      expect(has(401), name).toBe(true);
      if (!route.openToAllPlans) expect(has(403), name).toBe(true);
      expect(has(413), name).toBe(route.method !== 'GET');
      for (const answer of answers) {
        expect(answer.description, `${name} ${answer.status}`).not.toBe('');
        expect(answer.retryAfter === true, `${name} ${answer.status}`).toBe(answer.status === 429);
      }
      expect(answers.map((answer) => answer.status)).toEqual([...answers.map((answer) => answer.status)].sort((a, b) => a - b));
    }
  });

  it('say scope_required on the scoped route and plan-free routes answer no plan 403', () => {
    expect(errorAnswers('download').find((answer) => answer.status === 401)?.description).toMatch(/scope_required/);
    expect(errorAnswers('analysis.submit').map((answer) => answer.status)).not.toContain(403);
    expect(errorAnswers('health').map((answer) => answer.status)).not.toContain(400);
  });
});
