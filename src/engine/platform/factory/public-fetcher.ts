/**
 * The live platform's bounded fetcher of public hosts, for readers outside the engine (MCP file
 * arguments given as URLs); its code is loaded on first use.
 */
import type { PublicFetcher } from '../live/outside-page.js';

export type { PublicBytes, PublicFetcher } from '../live/outside-page.js';

export async function openPublicFetcher(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<PublicFetcher> {
  const [{ createPublicFetcher, OUTSIDE_LIMITS }, { networkSettingsFromEnv }] = await Promise.all([import('../live/outside-page.js'), import('../live/network-options.js')]);
  return createPublicFetcher(networkSettingsFromEnv(env), { ...OUTSIDE_LIMITS, timeoutMs });
}
