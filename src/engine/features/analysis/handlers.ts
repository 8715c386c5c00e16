import type { Handlers } from '../../context.js';
// Registers the `analysis` job processor, so any worker of this process can run the jobs.
import './analysis-job.js';
import { sampleOnly } from '../sample-only.js';
import { submitAnalysis } from './submit.js';

export const analysisHandlers: Handlers = {
  'analysis.submit': sampleOnly<'analysis.submit'>('Video analysis', (request, input) => submitAnalysis(request, input)),
};
