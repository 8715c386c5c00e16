/**
 * Toolsets: the groups `--toolsets` (or TUBEKIT_MCP_TOOLSETS) picks from, so an agent sees only the
 * tools of its task. Each part of the route table falls in one; health and job polling belong to
 * every toolset, since the voices, media and channels tools all hand back jobs.
 */
import type { RouteTag } from '../core/route.js';
import { usageError } from '../core/client-errors.js';

export const TOOLSETS = ['voices', 'channels', 'media', 'workspace', 'research', 'collabs', 'alerts'] as const;
export type Toolset = (typeof TOOLSETS)[number];
/** Tools that every selection keeps. */
export type ToolGroup = Toolset | 'core';

export const toolsetOfTag: Record<RouteTag, ToolGroup> = {
  system: 'core',
  jobs: 'core',
  voices: 'voices',
  generation: 'voices',
  channels: 'channels',
  download: 'media',
  analysis: 'media',
  workspace: 'workspace',
  research: 'research',
  collabs: 'collabs',
  alerts: 'alerts',
  webhooks: 'alerts',
};

const isToolset = (name: string): name is Toolset => (TOOLSETS as readonly string[]).includes(name);

/** `voices,media` as a set; `all` (or nothing given) is every toolset. A misspelt name is a usage error. */
export function parseToolsets(text: string | undefined, source: string): Set<Toolset> {
  const names = (text ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0 || names.includes('all')) return new Set(TOOLSETS);
  const unknown = names.filter((name) => !isToolset(name));
  if (unknown.length > 0) {
    throw usageError(`${source} names no toolset ${unknown.map((name) => `"${name}"`).join(', ')}.`, `Toolsets: ${TOOLSETS.join(', ')} (or all).`);
  }
  return new Set(names as Toolset[]);
}
