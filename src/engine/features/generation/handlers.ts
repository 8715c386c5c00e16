import type { Handlers } from '../../context.js';
// Registers the `generation` job processor, so any worker of this process can run the jobs.
import './generation-job.js';
import { submitGeneration } from './submit.js';

export const generationHandlers: Handlers = {
  generate(request, input) {
    return submitGeneration(request, input);
  },
};
