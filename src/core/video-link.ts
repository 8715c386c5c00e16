/**
 * What a `video_url` field holds, for the endpoints that take one (download, video analysis): a
 * watch link (www., m., music. hosts; extra parameters such as &t= and &list= ignored), a
 * youtu.be short link, or a Shorts URL (live and embed links too). Pure parsing: the CLI uses it
 * to refuse a bad link before any call, the engine to tell the three ways a link can be wrong.
 */
import { parseVideoUrl } from './channel-input.js';

export type VideoLink =
  | { ok: true; videoId: string }
  /** Not a link at all, or a platform link that names no video (a channel page, the home page). */
  | { ok: false; reason: 'malformed' | 'not_a_video'; message: string }
  /** A link to another site (TikTok, Instagram, Vimeo, …). */
  | { ok: false; reason: 'unsupported'; message: string };

const PLATFORM_HOST = /(^|\.)(youtube\.com|youtu\.be)$/i;
const ACCEPTED = 'a watch link (youtube.com/watch?v=…), a short link (youtu.be/…) or a Shorts URL (youtube.com/shorts/…)';

function hostOf(input: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  try {
    const host = new URL(withScheme).hostname.toLowerCase();
    return host.includes('.') ? host : null;
  } catch {
    return null;
  }
}

export function parseVideoLink(raw: string): VideoLink {
  const input = raw.trim();
  const videoId = parseVideoUrl(input);
  if (videoId) return { ok: true, videoId };
  const host = /\s/.test(input) ? null : hostOf(input);
  if (!host) return { ok: false, reason: 'malformed', message: `is not a link; give ${ACCEPTED}` };
  if (!PLATFORM_HOST.test(host)) {
    return { ok: false, reason: 'unsupported', message: `links of ${host.replace(/^www\./, '')} are not supported; give ${ACCEPTED}` };
  }
  return { ok: false, reason: 'not_a_video', message: `names no video; give ${ACCEPTED}` };
}
