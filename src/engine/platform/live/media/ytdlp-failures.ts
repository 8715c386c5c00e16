/**
 * yt-dlp's failures as the service's answers, its own reason kept. A video that cannot be had is
 * the caller's 400 `video_unavailable` (private, removed, age-restricted, members-only, not yet
 * premiered); the site refusing this machine (sign in, bot check, rate limit) is a 503 saying what
 * to do; the network is a 503 `platform_unreachable`; anything else a 502 `upstream_error`.
 */
import { ServiceError } from '../../../../core/errors.js';
import { INSTALL_ADVICE } from './ytdlp-tool.js';

type Unavailable = 'private' | 'removed' | 'age-restricted' | 'members-only' | 'not yet available' | 'live now';

const UNAVAILABLE: Array<[RegExp, Unavailable]> = [
  [/private video|video is private/i, 'private'],
  [/members[- ]only|join this channel|available to this channel's members|channel's members on level/i, 'members-only'],
  [/confirm your age|age[- ]restricted|inappropriate for some users/i, 'age-restricted'],
  [/premieres? in|live event will begin|upcoming|will begin in|scheduled/i, 'not yet available'],
  [/is live now|currently live|live stream is in progress/i, 'live now'],
  [
    /video unavailable|has been removed|no longer available|account associated with this video has been terminated|removed by the uploader|copyright claim|does not exist|not available in your country|blocked it in your country/i,
    'removed',
  ],
];

const BOT_CHECK = /not a bot|unusual traffic|HTTP Error 429|too many requests/i;
const SIGN_IN = /sign in|log ?in|cookies/i;
const NETWORK = /urlopen error|name or service not known|temporary failure in name resolution|connection refused|network is unreachable|timed out|connection reset|remote end closed connection/i;
const OUTDATED = /please update|requested format is not available|unable to extract|signature extraction failed|nsig extraction failed|n challenge/i;

const ADVICE = {
  private: 'Only its owner (or invited accounts) can watch it.',
  removed: 'Check the link; the video is gone from the platform.',
  'age-restricted': 'The platform shows it only to signed-in adults: give a cookies file of such an account (TUBEKIT_COOKIES, Netscape format).',
  'members-only': "Only the channel's members can watch it: give a cookies file of a member's account (TUBEKIT_COOKIES).",
  'not yet available': 'Try again once it has premiered.',
  'live now': 'Download it once the stream has ended.',
} as const;

/** The reason yt-dlp gave: its last `ERROR:` line without the extractor and id prefix. */
export function ytdlpReason(text: string): string {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const error = lines.filter((line) => line.startsWith('ERROR:')).at(-1) ?? lines.at(-1) ?? 'no reason given';
  return error
    .replace(/^ERROR:\s*/, '')
    .replace(/^\[[^\]]+\]\s*[\w-]{11}:\s*/, '')
    .replace(/^\[[^\]]+\]\s*/, '')
    .slice(0, 500);
}

/** The service's error for what yt-dlp (or the metadata fixture standing in for it) said. */
export function ytdlpFailure(videoId: string, text: string): ServiceError {
  const reason = ytdlpReason(text);
  if (BOT_CHECK.test(text)) {
    return new ServiceError({
      status: 503,
      code: 'platform_refused',
      message: `The video platform refused to serve ${videoId} to this machine: ${reason}`,
      hint: 'Give a cookies file of a signed-in browser (TUBEKIT_COOKIES), use another network (TUBEKIT_PROXY), or update yt-dlp; then try again later.',
    });
  }
  for (const [pattern, kind] of UNAVAILABLE) {
    if (pattern.test(text)) {
      return new ServiceError({ status: 400, code: 'video_unavailable', message: `Video unavailable (${kind}): ${videoId}: ${reason}`, hint: ADVICE[kind] });
    }
  }
  if (SIGN_IN.test(text)) {
    return new ServiceError({
      status: 503,
      code: 'platform_refused',
      message: `The video platform asks to sign in before serving ${videoId}: ${reason}`,
      hint: 'Give a cookies file of a signed-in browser (TUBEKIT_COOKIES, Netscape format), or use another network (TUBEKIT_PROXY); updating yt-dlp may help.',
    });
  }
  if (NETWORK.test(text)) {
    return new ServiceError({
      status: 503,
      code: 'platform_unreachable',
      message: `the video platform could not be reached while fetching ${videoId}: ${reason}`,
      hint: 'Check the connection, or set TUBEKIT_PROXY.',
    });
  }
  return new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: `yt-dlp could not fetch ${videoId}: ${reason}`,
    hint: OUTDATED.test(text) ? `The platform may have changed: ${INSTALL_ADVICE}` : 'Try again in a while; if it keeps failing, update yt-dlp.',
  });
}
