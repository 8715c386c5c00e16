/**
 * The route table's `system` part: service health.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import { noInput } from '../schemas/params.js';
import * as jobs from '../schemas/jobs.js';

export const systemRoutes = routePart('system', {
  health: defineRoute({
    method: 'GET', path: '/api/health', encoding: 'none', input: noInput, response: jobs.healthOutput,
    summary: 'Service health and the caller\'s job counts',
    // Open, as the hosted documentation says: without a key, only the status; a key that is sent must be valid.
    auth: false,
    openToAllPlans: true,
  }),
});
