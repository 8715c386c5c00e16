import { notFound } from '../../../core/errors.js';
import type { Handlers } from '../../context.js';
import { channelVideos } from './channel-videos.js';
import { channelHistory } from './history.js';
import { channelJobBody } from './job-view.js';
import { CHANNEL_JOB_KIND } from './processor.js';
import { storedChecks } from './stored-checks.js';
import { submitChannelJob } from './submit.js';

export const channelHandlers: Handlers = {
  'channels.process': submitChannelJob,

  'channels.history'(request, input) {
    return channelHistory(request, input.channel_id, input.days);
  },

  'channels.videos': channelVideos,

  'channels.checks'(request, input) {
    return storedChecks(request, input.channel_id);
  },

  /** `GET /api/process-channel/:job_id`, long-polled with `wait_seconds`; others' jobs are 404. */
  async 'channels.processStatus'(request, input) {
    const { engine, user } = request;
    const load = async () => {
      const row = await engine.jobs.queue.get(input.job_id);
      if (!row || row.kind !== CHANNEL_JOB_KIND || row.user_id !== user.userId) {
        throw notFound(`Job ${input.job_id} not found. Use the job_id the submit returned, with the same API key.`);
      }
      return row;
    };
    const row = await engine.jobs.wait(load, input.wait_seconds, request.signal);
    return channelJobBody(row, engine.clock.now());
  },
};
