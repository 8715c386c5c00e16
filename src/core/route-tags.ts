/**
 * Which part of the route table (routes/<tag>.ts) holds each route, without loading any of them:
 * the engine builds only the schemas of the part a call needs. The type makes this list name every
 * route exactly once; a test checks each tag against the table.
 */
import type { RouteTag } from './route.js';
import type { RouteName } from './routes.js';

export const routeTags = {
  health: 'system',
  'voices.stealth.list': 'voices',
  'voices.stealth.clone': 'voices',
  'voices.stealth.delete': 'voices',
  'voices.alt.list': 'voices',
  'voices.alt.clone': 'voices',
  'voices.alt.delete': 'voices',
  'voices.catalog': 'voices',
  'voices.elevenlabs.clone': 'voices',
  'voices.elevenlabs.delete': 'voices',
  generate: 'generation',
  'jobs.status': 'jobs',
  'jobs.list': 'jobs',
  'channels.process': 'channels',
  'channels.processStatus': 'channels',
  'channels.history': 'channels',
  download: 'download',
  'video.info': 'download',
  'folders.list': 'workspace',
  'folders.create': 'workspace',
  'folders.rename': 'workspace',
  'folders.delete': 'workspace',
  'folders.channels': 'workspace',
  'saved.add': 'workspace',
  'saved.remove': 'workspace',
  'saved.move': 'workspace',
  'channels.resolve': 'workspace',
  'alerts.list': 'alerts',
  'alerts.create': 'alerts',
  'alerts.update': 'alerts',
  'alerts.delete': 'alerts',
  'alerts.triggered': 'alerts',
  'alerts.status': 'alerts',
  'monetization.external': 'research',
  'monetization.ads': 'research',
  'cms.check': 'research',
  'cms.networks': 'research',
  'terminated.search': 'research',
  'terminated.show': 'research',
  'analysis.submit': 'analysis',
  'collabs.top': 'collabs',
  'collabs.channel': 'collabs',
  'collabs.feed': 'collabs',
} as const satisfies Record<RouteName, RouteTag>;
