/**
 * The route table's `jobs` part: task job status (generation and analysis jobs), and the list of
 * a user's jobs of every kind.
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
  // Our extension: the hosted service has no job list, so a lost job id could not be found again.
  'jobs.list': defineRoute({
    method: 'GET', path: '/api/jobs', encoding: 'query', input: jobs.jobListInput,
    response: jobs.jobListOutput, summary: 'Your recent jobs of every kind, newest first (a tubekit extension)',
    // Anyone who can have a job (analysis is open to every plan) can list theirs.
    openToAllPlans: true,
  }),
});
