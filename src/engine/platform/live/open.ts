/** Opens the live platform for a data dir (the factory's case): our fetch, the InnerTube client, the reads. */
import { createInnertube } from './innertube.js';
import { createLiveFetch, type LiveFetchDeps } from './live-fetch.js';
import { LivePlatform } from './live-platform.js';
import { LiveMedia } from './media/live-media.js';
import type { LiveNetworkSettings } from './network-options.js';

export interface OpenLiveOptions {
  dataDir: string;
  network: LiveNetworkSettings;
  deps?: LiveFetchDeps;
  clock?: () => number;
}

export async function openLivePlatform(options: OpenLiveOptions): Promise<LivePlatform> {
  const fetch = await createLiveFetch(options.network, options.deps);
  const client = await createInnertube(fetch, options.dataDir);
  return new LivePlatform(client, options.clock, new LiveMedia(options.network, options.dataDir));
}
