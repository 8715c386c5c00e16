/**
 * The route table: every endpoint of the service, once. The server registers its handlers
 * from it, the remote client builds its requests from it, and the engine validates with it,
 * so the three cannot drift. It is kept in parts, one per tag (routes/), so the engine can load only
 * the part a call needs; route-tags.ts says which part holds which route.
 */
import type { z } from 'zod';
import { systemRoutes } from './routes/system.js';
import { voicesRoutes } from './routes/voices.js';
import { generationRoutes } from './routes/generation.js';
import { jobsRoutes } from './routes/jobs.js';
import { channelsRoutes } from './routes/channels.js';
import { downloadRoutes } from './routes/download.js';
import { workspaceRoutes } from './routes/workspace.js';
import { alertsRoutes } from './routes/alerts.js';
import { researchRoutes } from './routes/research.js';
import { analysisRoutes } from './routes/analysis.js';
import { collabsRoutes } from './routes/collabs.js';
import { webhooksRoutes } from './routes/webhooks.js';

export const routes = {
  ...systemRoutes,
  ...voicesRoutes,
  ...generationRoutes,
  ...jobsRoutes,
  ...channelsRoutes,
  ...downloadRoutes,
  ...workspaceRoutes,
  ...alertsRoutes,
  ...researchRoutes,
  ...analysisRoutes,
  ...collabsRoutes,
  ...webhooksRoutes,
};

export type Routes = typeof routes;
export type RouteName = keyof Routes;
/** What a caller may pass (before defaults and conversions). */
export type RouteInput<N extends RouteName> = z.input<Routes[N]['input']>;
/** What a handler receives (validated, defaults applied). */
export type ParsedInput<N extends RouteName> = z.output<Routes[N]['input']>;
export type RouteOutput<N extends RouteName> = z.output<Routes[N]['response']>;

export const routeNames = Object.keys(routes) as RouteName[];
