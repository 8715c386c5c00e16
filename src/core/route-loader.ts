/**
 * The route table one part at a time. Building every schema of the table costs a short command
 * about as much as the rest of its start-up, so the engine loads only the part (routes/<tag>.ts)
 * that holds the route it is called on. `serve` and the remote client import the whole table.
 */
import type { RouteTag } from './route.js';
import { routeTags } from './route-tags.js';
import type { RouteName, Routes } from './routes.js';

type RoutePart = Partial<Routes>;

const parts: Record<RouteTag, () => Promise<RoutePart>> = {
  system: async () => (await import('./routes/system.js')).systemRoutes,
  voices: async () => (await import('./routes/voices.js')).voicesRoutes,
  generation: async () => (await import('./routes/generation.js')).generationRoutes,
  jobs: async () => (await import('./routes/jobs.js')).jobsRoutes,
  channels: async () => (await import('./routes/channels.js')).channelsRoutes,
  download: async () => (await import('./routes/download.js')).downloadRoutes,
  workspace: async () => (await import('./routes/workspace.js')).workspaceRoutes,
  alerts: async () => (await import('./routes/alerts.js')).alertsRoutes,
  research: async () => (await import('./routes/research.js')).researchRoutes,
  analysis: async () => (await import('./routes/analysis.js')).analysisRoutes,
  collabs: async () => (await import('./routes/collabs.js')).collabsRoutes,
  webhooks: async () => (await import('./routes/webhooks.js')).webhooksRoutes,
};

const loaded: RoutePart = {};

/** The route if its part is loaded already (the common case once a process has warmed up). */
export function loadedRoute<N extends RouteName>(name: N): Routes[N] | undefined {
  return loaded[name];
}

/** The route, loading its part of the table on first use. */
export async function loadRoute<N extends RouteName>(name: N): Promise<Routes[N]> {
  if (!Object.hasOwn(routeTags, name)) throw new RangeError(`${String(name)} is not a route of the table`);
  Object.assign(loaded, await parts[routeTags[name]]());
  return loaded[name]!;
}
