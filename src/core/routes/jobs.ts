/**
 * The route table's `jobs` part: task job status (generation and analysis jobs).
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as jobs from '../schemas/jobs.js';

export const jobsRoutes = routePart('jobs', {
  'jobs.status': defineRoute({
    method: 'GET', path: '/api/job-status/:job_id', encoding: 'query', input: jobs.jobStatusInput,
    response: jobs.taskJob, summary: 'State of a generation or analysis job', longPoll: true,
    // Video analysis is open to every plan, so polling its jobs must be too.
    openToAllPlans: true,
  }),
});
