/**
 * Recognises what a user typed for a channel or a video: a `UC…` id, an `@handle`, a channel
 * URL (handle, /channel/, /c/, /user/ forms) or a video URL (watch, youtu.be, shorts, live, embed).
 * Pure parsing; looking the handle or video up is the platform's job. A `/c/` or `/user/` name is
 * a legacy URL, not a handle: the platform resolves the URL as it is (`legacyChannelUrl`).
 */
export type ChannelRef =
  | { kind: 'id'; channelId: string }
  | { kind: 'handle'; handle: string }
  | { kind: 'legacy'; path: 'c' | 'user'; name: string }
  | { kind: 'video'; videoId: string };

/** The canonical URL of a legacy custom (`/c/`) or username (`/user/`) channel address. */
export const legacyChannelUrl = (ref: { path: 'c' | 'user'; name: string }): string => `https://www.youtube.com/${ref.path}/${encodeURIComponent(ref.name)}`;

/** A legacy name: letters, digits and a few marks (the site's old custom names and usernames). */
const LEGACY_NAME = /^[\p{L}\p{N}._-]{1,100}$/u;

const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const HANDLE = /^@?([A-Za-z0-9._-]{3,100})$/;
const PLATFORM_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com']);
const SHORT_HOSTS = new Set(['youtu.be', 'www.youtu.be']);

export const isChannelId = (value: string): boolean => CHANNEL_ID.test(value);
export const isVideoId = (value: string): boolean => VIDEO_ID.test(value);

function toUrl(input: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

/** A video id from a watch link, short link, Shorts, live or embed URL; null otherwise. */
export function parseVideoUrl(input: string): string | null {
  const url = toUrl(input.trim());
  if (!url) return null;
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean);
  let candidate: string | undefined;
  if (SHORT_HOSTS.has(host)) candidate = segments[0];
  else if (PLATFORM_HOSTS.has(host)) {
    if (segments[0] === 'watch') candidate = url.searchParams.get('v') ?? undefined;
    else if (['shorts', 'live', 'embed', 'v'].includes(segments[0] ?? '')) candidate = segments[1];
  }
  return candidate && VIDEO_ID.test(candidate) ? candidate : null;
}

/** What the input refers to, or null when it is none of the accepted forms. */
export function parseChannelRef(raw: string, options: { allowVideo?: boolean } = {}): ChannelRef | null {
  const input = raw.trim();
  if (CHANNEL_ID.test(input)) return { kind: 'id', channelId: input };
  if (input.startsWith('@')) {
    const match = HANDLE.exec(input);
    return match ? { kind: 'handle', handle: match[1]! } : null;
  }
  if (!input.includes('/') && !input.includes('.')) return null;
  const url = toUrl(input);
  if (!url || !PLATFORM_HOSTS.has(url.hostname.toLowerCase())) {
    if (options.allowVideo && url && SHORT_HOSTS.has(url.hostname.toLowerCase())) {
      const videoId = parseVideoUrl(input);
      return videoId ? { kind: 'video', videoId } : null;
    }
    return null;
  }
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const first = segments[0] ?? '';
  if (first.startsWith('@')) {
    const match = HANDLE.exec(first);
    return match ? { kind: 'handle', handle: match[1]! } : null;
  }
  if (first === 'channel' && segments[1] && CHANNEL_ID.test(segments[1])) {
    return { kind: 'id', channelId: segments[1] };
  }
  if ((first === 'c' || first === 'user') && segments[1]) {
    return LEGACY_NAME.test(segments[1]) ? { kind: 'legacy', path: first, name: segments[1] } : null;
  }
  if (options.allowVideo) {
    const videoId = parseVideoUrl(input);
    if (videoId) return { kind: 'video', videoId };
  }
  return null;
}

export const CHANNEL_INPUT_FORMS = '@handle, a channel URL (youtube.com/@name or /channel/UC…), or a UC… channel id';
