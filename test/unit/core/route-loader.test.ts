import { describe, expect, it } from 'vitest';
import { loadRoute, loadedRoute } from '../../../src/core/route-loader.js';
import { routeTags } from '../../../src/core/route-tags.js';
import { routeNames, routes, type RouteName } from '../../../src/core/routes.js';

describe('the route table, one part at a time', () => {
  it('knows the part of every route, and each part holds exactly the routes of its tag', async () => {
    expect(Object.keys(routeTags).sort()).toEqual([...routeNames].sort());
    for (const name of routeNames) {
      expect(routeTags[name], name).toBe(routes[name].tag);
      // The same definition object as the whole table's: one table, loaded in parts.
      expect(await loadRoute(name), name).toBe(routes[name]);
    }
  });

  it('keeps each route in one part only, the part of its tag', async () => {
    const parts = await Promise.all(
      [...new Set(Object.values(routeTags))].map(async (tag) => [tag, Object.values(await import(`../../../src/core/routes/${tag}.ts`))[0]] as const),
    );
    let count = 0;
    for (const [tag, part] of parts) {
      for (const route of Object.values(part as Record<string, { tag: string }>)) expect(route.tag).toBe(tag);
      count += Object.keys(part as object).length;
    }
    // A name defined in two parts would be overwritten silently where routes.ts joins them.
    expect(count).toBe(routeNames.length);
  });

  it('answers a loaded route without loading anything', async () => {
    await loadRoute('folders.list');
    expect(loadedRoute('folders.create')).toBe(routes['folders.create']);
  });

  it('refuses a name that is not a route, including inherited property names', async () => {
    await expect(loadRoute('folders.lst' as RouteName)).rejects.toThrow(/not a route/);
    await expect(loadRoute('toString' as RouteName)).rejects.toThrow(/not a route/);
  });
});
