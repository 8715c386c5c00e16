/**
 * Live downloads in tests: a harness whose data dir reads the live platform, its requests sent to
 * a media fixture server (TUBEKIT_PLATFORM_ORIGIN), and yt-dlp required. Without yt-dlp the
 * suites fail loudly in CI (CI=true); elsewhere they are skipped with the reason printed.
 */
import { execaSync } from 'execa';

function ytdlpVersion(): string | null {
  try {
    return execaSync(process.env.TUBEKIT_YTDLP || 'yt-dlp', ['--version'], { timeout: 20_000 }).stdout.trim();
  } catch {
    return null;
  }
}

export const YTDLP_VERSION = ytdlpVersion();

if (!YTDLP_VERSION) {
  const message = 'yt-dlp is not installed: live download tests need it (Debian/Ubuntu: apt-get install yt-dlp).';
  if (process.env.CI) throw new Error(message);
  console.warn(`${message} Skipping them.`);
}

/** The live download suites run where yt-dlp is (always in CI, where its absence fails them). */
export const hasYtdlp = YTDLP_VERSION !== null;

export const liveWatchUrl = (id: string) => `https://www.youtube.com/watch?v=${id}`;
