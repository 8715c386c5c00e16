import type { Handlers } from '../../context.js';
// Registers the `analysis` job processor, so any worker of this process can run the jobs.
import './analysis-job.js';
import { submitAnalysis } from './submit.js';

/** Both platforms: the job itself says when the live platform has no vision model to use. */
export const analysisHandlers: Handlers = {
  'analysis.submit': (request, input) => submitAnalysis(request, input),
};
