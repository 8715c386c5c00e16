/**
 * The route table's `channels` part: channel ingestion jobs and a channel's figures over time.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as channelReads from '../schemas/channel-videos.js';
import * as history from '../schemas/history.js';
import * as jobs from '../schemas/jobs.js';

export const channelsRoutes = routePart('channels', {
  'channels.process': defineRoute({
    method: 'POST', path: '/api/process-channel', encoding: 'json', input: jobs.processChannelInput,
    response: jobs.processChannelOutput, summary: 'Queue ingestion of one channel',
  }),
  'channels.processStatus': defineRoute({
    method: 'GET', path: '/api/process-channel/:job_id', encoding: 'query', input: jobs.channelJobStatusInput,
    response: jobs.channelJob, summary: 'State of a channel job (long-poll with wait_seconds)', longPoll: true,
  }),
  'channels.history': defineRoute({
    method: 'GET', path: '/api/channels/:channel_id/history', encoding: 'query', input: history.channelHistoryInput,
    response: history.channelHistoryOutput, summary: 'Subscribers, views and videos of a channel per day', extension: true,
  }),
  'channels.videos': defineRoute({
    method: 'GET', path: '/api/channels/:channel_id/videos', encoding: 'query', input: channelReads.channelVideosInput,
    response: channelReads.channelVideosOutput, summary: 'A channel\'s recent videos as the index lists them (reads the index only)', extension: true,
  }),
  'channels.checks': defineRoute({
    method: 'GET', path: '/api/channels/:channel_id/checks', encoding: 'query', input: channelReads.storedChecksInput,
    response: channelReads.storedChecksOutput, summary: 'The check verdicts already stored for a channel (runs no check, spends no quota)', extension: true,
  }),
});
