/**
 * The route table: every endpoint of the service, once. The server registers its handlers
 * from it, the remote client builds its requests from it, and the engine validates with it,
 * so the three cannot drift.
 */
import type { z } from 'zod';
import { defineRoute } from './route.js';
import * as alerts from './schemas/alerts.js';
import * as collabs from './schemas/collabs.js';
import * as jobs from './schemas/jobs.js';
import * as media from './schemas/media.js';
import * as research from './schemas/research.js';
import * as voices from './schemas/voices.js';
import * as ws from './schemas/workspace.js';

export const routes = {
  // — system —
  health: defineRoute({
    tag: 'system',
    method: 'GET', path: '/api/health', encoding: 'none', input: voices.noInput, response: jobs.healthOutput,
    summary: 'Service health and the caller\'s job counts',
  }),

  // — voices —
  'voices.stealth.list': defineRoute({
    tag: 'voices',
    method: 'GET', path: '/api/voices/stealth', encoding: 'none', input: voices.noInput,
    response: voices.stealthVoicesOutput, summary: 'Built-in stealth voices plus your clones',
  }),
  'voices.stealth.clone': defineRoute({
    tag: 'voices',
    method: 'POST', path: '/api/voices/clone', encoding: 'multipart', input: voices.stealthCloneInput,
    response: voices.stealthCloneOutput, summary: 'Clone a stealth voice from an audio sample',
    files: { audioFile: { maxBytes: voices.STEALTH_SAMPLE_MAX_BYTES } },
  }),
  'voices.stealth.delete': defineRoute({
    tag: 'voices',
    method: 'DELETE', path: '/api/voices/stealth/:voice_id', encoding: 'none', input: voices.voiceIdInput,
    response: voices.deleteOutput, summary: 'Delete one of your stealth clones',
  }),
  'voices.alt.list': defineRoute({
    tag: 'voices',
    method: 'GET', path: '/api/voices/alt', encoding: 'none', input: voices.noInput,
    response: voices.altVoicesOutput, summary: 'Your alt voice clones', aliases: ['/api/voices/minimax'],
  }),
  'voices.alt.clone': defineRoute({
    tag: 'voices',
    method: 'POST', path: '/api/voices/alt/clone', encoding: 'multipart', input: voices.altCloneInput,
    response: voices.altCloneOutput, summary: 'Clone an alt voice from an audio sample',
    files: { audio_file: { maxBytes: voices.ALT_SAMPLE_MAX_BYTES } }, aliases: ['/api/voices/minimax/clone'],
  }),
  'voices.alt.delete': defineRoute({
    tag: 'voices',
    method: 'DELETE', path: '/api/voices/alt/:voice_id', encoding: 'none', input: voices.voiceIdInput,
    response: voices.deleteOutput, summary: 'Delete one of your alt clones', aliases: ['/api/voices/minimax/:voice_id'],
  }),

  // — generation and task jobs —
  generate: defineRoute({
    tag: 'generation',
    method: 'POST', path: '/api/generate-simple', encoding: 'multipart', input: voices.generateInput,
    response: voices.generateOutput, summary: 'Queue a text-to-speech generation',
  }),
  'jobs.status': defineRoute({
    tag: 'jobs',
    method: 'GET', path: '/api/job-status/:job_id', encoding: 'query', input: jobs.jobStatusInput,
    response: jobs.taskJob, summary: 'State of a generation or analysis job', longPoll: true,
    // Video analysis is open to every plan, so polling its jobs must be too.
    openToAllPlans: true,
  }),

  // — channel processing —
  'channels.process': defineRoute({
    tag: 'channels',
    method: 'POST', path: '/api/process-channel', encoding: 'json', input: jobs.processChannelInput,
    response: jobs.processChannelOutput, summary: 'Queue ingestion of one channel',
  }),
  'channels.processStatus': defineRoute({
    tag: 'channels',
    method: 'GET', path: '/api/process-channel/:job_id', encoding: 'query', input: jobs.channelJobStatusInput,
    response: jobs.channelJob, summary: 'State of a channel job (long-poll with wait_seconds)', longPoll: true,
  }),

  // — download —
  download: defineRoute({
    tag: 'download',
    method: 'POST', path: '/api/download-video', encoding: 'json', input: media.downloadInput,
    response: media.downloadOutput, summary: 'Download a video, its audio or its subtitles', scope: 'generations',
  }),

  // — workspace —
  'folders.list': defineRoute({
    tag: 'workspace',
    method: 'GET', path: '/api/folders', encoding: 'none', input: ws.listFoldersInput,
    response: ws.listFoldersOutput, summary: 'Your folders',
  }),
  'folders.create': defineRoute({
    tag: 'workspace',
    method: 'POST', path: '/api/folders', encoding: 'json', input: ws.createFolderInput,
    response: ws.folderOutput, status: 201, summary: 'Create a folder',
  }),
  'folders.rename': defineRoute({
    tag: 'workspace',
    method: 'PATCH', path: '/api/folders/:id', encoding: 'json', input: ws.renameFolderInput,
    response: ws.folderOutput, summary: 'Rename a folder',
  }),
  'folders.delete': defineRoute({
    tag: 'workspace',
    method: 'DELETE', path: '/api/folders/:id', encoding: 'none', input: ws.folderIdInput,
    response: ws.deleteFolderOutput, summary: 'Delete a folder and unsave its channels',
  }),
  'folders.channels': defineRoute({
    tag: 'workspace',
    method: 'GET', path: '/api/folders/:id/channels', encoding: 'none', input: ws.folderIdInput,
    response: ws.folderChannelsOutput, summary: 'Channels in a folder with live deltas',
  }),
  'saved.add': defineRoute({
    tag: 'workspace',
    method: 'POST', path: '/api/saved-channels', encoding: 'json', input: ws.saveChannelsInput,
    response: ws.saveChannelsOutput, summary: 'Save channels into a folder',
  }),
  'saved.remove': defineRoute({
    tag: 'workspace',
    method: 'DELETE', path: '/api/saved-channels/:channel_id', encoding: 'none', input: ws.unsaveChannelInput,
    response: ws.unsaveChannelOutput, summary: 'Remove a channel from all your folders',
  }),
  'saved.move': defineRoute({
    tag: 'workspace',
    method: 'POST', path: '/api/saved-channels/move', encoding: 'json', input: ws.moveChannelInput,
    response: ws.moveChannelOutput, summary: 'Move a saved channel between folders',
  }),
  'channels.resolve': defineRoute({
    tag: 'workspace',
    method: 'POST', path: '/api/channels/resolve', encoding: 'json', input: ws.resolveInput,
    response: ws.resolveOutput, summary: 'Resolve a handle or URL to a channel id',
  }),

  // — alerts —
  'alerts.list': defineRoute({
    tag: 'alerts',
    method: 'GET', path: '/api/alerts', encoding: 'none', input: voices.noInput,
    response: alerts.listAlertsOutput, summary: 'Your alerts',
  }),
  'alerts.create': defineRoute({
    tag: 'alerts',
    method: 'POST', path: '/api/alerts', encoding: 'json', input: alerts.createAlertInput,
    response: alerts.alertOutput, status: 201, summary: 'Create an alert',
  }),
  'alerts.update': defineRoute({
    tag: 'alerts',
    method: 'PATCH', path: '/api/alerts/:id', encoding: 'json', input: alerts.updateAlertInput,
    response: alerts.alertOutput, summary: 'Change an alert',
  }),
  'alerts.delete': defineRoute({
    tag: 'alerts',
    method: 'DELETE', path: '/api/alerts/:id', encoding: 'none', input: alerts.alertIdInput,
    response: alerts.deleteAlertOutput, summary: 'Delete an alert and its history',
  }),
  'alerts.triggered': defineRoute({
    tag: 'alerts',
    method: 'GET', path: '/api/alerts/triggered', encoding: 'query', input: alerts.triggeredInput,
    response: alerts.triggeredOutput, summary: 'Channels that triggered your alerts',
  }),
  'alerts.status': defineRoute({
    tag: 'alerts',
    method: 'GET', path: '/api/alerts/outlier-status', encoding: 'none', input: voices.noInput,
    response: alerts.outlierStatusOutput, summary: 'New-channel counts per alert',
  }),

  // — analysis tools —
  'monetization.external': defineRoute({
    tag: 'research',
    method: 'GET', path: '/api/channel-external-monetization/:channel_id', encoding: 'query',
    input: research.externalMonetizationInput, response: research.externalMonetizationOutput,
    summary: 'What a channel sells outside the platform',
  }),
  'monetization.ads': defineRoute({
    tag: 'research',
    method: 'GET', path: '/api/channel-monetized/:channel_id', encoding: 'none', input: research.channelIdInput,
    response: research.adMonetizationOutput, summary: 'Live ad-monetization check',
  }),
  'cms.check': defineRoute({
    tag: 'research',
    method: 'GET', path: '/api/channel-cms/:channel_id', encoding: 'query', input: research.cmsCheckInput,
    response: research.cmsCheckOutput, summary: 'Managed-network (CMS) status of a channel',
  }),
  'cms.networks': defineRoute({
    tag: 'research',
    method: 'GET', path: '/api/cms-networks', encoding: 'query', input: research.networksInput,
    response: research.networksOutput, summary: 'Browse managed networks, or one by oid',
  }),
  'analysis.submit': defineRoute({
    tag: 'analysis',
    method: 'POST', path: '/api/analyze-video', encoding: 'json', input: media.analyzeInput,
    response: media.analyzeOutput, summary: 'Queue an AI analysis of a video (free during preview)',
    openToAllPlans: true,
  }),
  'terminated.search': defineRoute({
    tag: 'research',
    method: 'GET', path: '/api/terminated-channels', encoding: 'query', input: research.terminatedInput,
    response: research.terminatedOutput, summary: 'Search terminated channels',
  }),

  // — collabs —
  'collabs.top': defineRoute({
    tag: 'collabs',
    method: 'GET', path: '/api/collabs/fastest-growing', encoding: 'query', input: collabs.collabsTopInput,
    response: collabs.collabsTopOutput, summary: 'Fastest-growing collab channels',
  }),
  'collabs.channel': defineRoute({
    tag: 'collabs',
    method: 'GET', path: '/api/collabs/channel/:channel_id', encoding: 'query', input: collabs.collabsChannelInput,
    response: collabs.collabsChannelOutput, summary: 'Partners and collab videos of a channel',
  }),
  'collabs.feed': defineRoute({
    tag: 'collabs',
    method: 'GET', path: '/api/collabs/feed', encoding: 'query', input: collabs.collabsFeedInput,
    response: collabs.collabsFeedOutput, summary: 'Newest collab videos',
  }),
};

export type Routes = typeof routes;
export type RouteName = keyof Routes;
/** What a caller may pass (before defaults and conversions). */
export type RouteInput<N extends RouteName> = z.input<Routes[N]['input']>;
/** What a handler receives (validated, defaults applied). */
export type ParsedInput<N extends RouteName> = z.output<Routes[N]['input']>;
export type RouteOutput<N extends RouteName> = z.output<Routes[N]['response']>;

export const routeNames = Object.keys(routes) as RouteName[];
