/**
 * Which endpoint of the route table a method and path name (`tubekit api GET /api/folders/3`),
 * with the path parameters it carries. Aliases (the hosted service's provider name) match too.
 */
import { routes, type RouteName } from './routes.js';

export interface RouteMatch {
  name: RouteName;
  params: Record<string, string>;
}

const compiled = Object.entries(routes).flatMap(([name, route]) =>
  [route.path, ...(route.aliases ?? [])].map((path) => {
    const names: string[] = [];
    const pattern = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([A-Za-z_]+)/g, (_, param: string) => {
      names.push(param);
      return '([^/]+)';
    });
    return { name: name as RouteName, method: route.method as string, regex: new RegExp(`^${pattern}/?$`), names };
  }),
);

/** The route a request names; literal paths win over parameter ones (`/alerts/triggered` before `/alerts/:id`). */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const verb = method.toUpperCase();
  const candidates = compiled
    .filter((route) => route.method === verb)
    .map((route) => ({ route, match: route.regex.exec(path) }))
    .filter((found): found is { route: (typeof compiled)[number]; match: RegExpExecArray } => found.match !== null)
    .sort((a, b) => a.route.names.length - b.route.names.length);
  const best = candidates[0];
  if (!best) return undefined;
  const params = Object.fromEntries(best.route.names.map((param, index) => [param, decodeURIComponent(best.match[index + 1]!)]));
  return { name: best.route.name, params };
}

/** The methods the route table has for a path (for "that path takes GET, POST"). */
export function methodsForPath(path: string): string[] {
  return [...new Set(compiled.filter((route) => route.regex.test(path)).map((route) => route.method))];
}
