/**
 * Which module serves which feature (the route table's tags). Modules are imported on first use,
 * so `tubekit folders list` never loads the speech synthesizer; workers and `serve` load them all
 * up front because processors register themselves when their module loads.
 */
import type { RouteTag } from '../../core/route.js';
import type { Handlers } from '../context.js';

type Loader = () => Promise<Handlers>;

export const featureLoaders: Partial<Record<RouteTag, Loader>> = {
  system: async () => (await import('./system.js')).systemHandlers,
  workspace: async () => (await import('./workspace/handlers.js')).workspaceHandlers,
  channels: async () => (await import('./channels/handlers.js')).channelHandlers,
  voices: async () => (await import('./voices/handlers.js')).voiceHandlers,
  generation: async () => (await import('./generation/handlers.js')).generationHandlers,
  alerts: async () => (await import('./alerts/handlers.js')).alertHandlers,
  collabs: async () => (await import('./collabs/handlers.js')).collabHandlers,
  webhooks: async () => (await import('./webhooks/handlers.js')).webhookHandlers,
  // Channel checks and terminated search share the tag: merge every research module's table here.
  research: async () => ({
    ...(await import('./checks/handlers.js')).checkHandlers,
    ...(await import('./terminated/handlers.js')).terminatedHandlers,
  }),
  analysis: async () => (await import('./analysis/handlers.js')).analysisHandlers,
  download: async () => ({
    ...(await import('./downloads/handlers.js')).downloadHandlers,
    ...(await import('./videos/handlers.js')).videoHandlers,
  }),
  // Job status describes any task job, so every task-job feature must be loaded first.
  jobs: async () => {
    await import('./generation/handlers.js');
    await import('./analysis/handlers.js');
    return { ...(await import('../jobs/task-status.js')).taskJobHandlers, ...(await import('../jobs/job-list.js')).jobListHandlers };
  },
};

export async function loadAllFeatures(): Promise<Handlers> {
  const tables = await Promise.all(Object.values(featureLoaders).map((load) => load()));
  return Object.assign({}, ...tables);
}
