/** Opens the live platform for a data dir (the factory's case): our fetch, the InnerTube client, the reads, the outside reader. */
import { createInnertube } from './innertube.js';
import { createLiveFetch, type LiveFetchDeps } from './live-fetch.js';
import { LivePlatform } from './live-platform.js';
import { LiveMedia } from './media/live-media.js';
import type { LiveNetworkSettings } from './network-options.js';
import { createOutsideReader, type OutsideLimits, type OutsideReaderDeps } from './outside-page.js';

export interface OpenLiveOptions {
  dataDir: string;
  network: LiveNetworkSettings;
  deps?: LiveFetchDeps;
  clock?: () => number;
  /** Size, time and redirect limits of pages read outside the site (stores). */
  outsideLimits?: OutsideLimits;
  outsideDeps?: OutsideReaderDeps;
}

export async function openLivePlatform(options: OpenLiveOptions): Promise<LivePlatform> {
  const fetch = await createLiveFetch(options.network, options.deps);
  const client = await createInnertube(fetch, options.dataDir);
  const outside = await createOutsideReader(options.network, options.outsideLimits, options.outsideDeps);
  return new LivePlatform(client, options.clock, outside, new LiveMedia(options.network, options.dataDir));
}
