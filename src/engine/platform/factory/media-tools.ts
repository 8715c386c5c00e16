/**
 * What `tubekit doctor` asks of the live platform's tools without opening a platform: the yt-dlp
 * in use (version, age, what it supports) and whether the site answers one light request. The
 * live code is imported only when asked.
 */
import type { PlatformReach } from '../live/reach.js';

export async function ytdlpReport(env: NodeJS.ProcessEnv) {
  const tool = await import('../live/media/ytdlp-tool.js');
  return {
    probe: await tool.probeYtdlp(env),
    minimum: tool.MIN_YTDLP_VERSION,
    jsRuntimesSince: tool.JS_RUNTIMES_SINCE,
    staleAfterDays: tool.STALE_AFTER_DAYS,
    installAdvice: tool.INSTALL_ADVICE,
    compare: tool.compareVersions,
    ageDays: tool.versionAgeDays,
  };
}

/** One light request to the site (or TUBEKIT_PLATFORM_ORIGIN), through the live platform's network settings. */
export async function liveReach(env: NodeJS.ProcessEnv): Promise<PlatformReach> {
  const [{ probePlatformReach }, { networkSettingsFromEnv }] = await Promise.all([import('../live/reach.js'), import('../live/network-options.js')]);
  return probePlatformReach(networkSettingsFromEnv(env));
}
