/** What a user may give to name a channel: "@handle", a channel id, a channel URL or a video URL (a bare word is no handle). */
export type ChannelReference =
  | { kind: 'channel_id'; channelId: string }
  | { kind: 'url'; url: string }
  | { kind: 'video'; videoId: string };

const CHANNEL_ID = /^UC[\w-]{22}$/;
const VIDEO_ID = /^[\w-]{11}$/;
const SITE_HOST = /(^|\.)(youtube\.com|youtu\.be)$/i;

export function parseChannelReference(input: string): ChannelReference | null {
  const text = input.trim();
  if (!text) return null;
  if (CHANNEL_ID.test(text)) return { kind: 'channel_id', channelId: text };
  if (/^@[\w.\-·]{3,100}$/u.test(text)) {
    return { kind: 'url', url: `https://www.youtube.com/@${encodeURIComponent(text.replace(/^@/, ''))}` };
  }
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (!SITE_HOST.test(url.hostname)) return null;
  if (/youtu\.be$/i.test(url.hostname)) {
    const id = url.pathname.slice(1);
    return VIDEO_ID.test(id) ? { kind: 'video', videoId: id } : null;
  }
  const watch = url.searchParams.get('v');
  if (url.pathname === '/watch' && watch && VIDEO_ID.test(watch)) return { kind: 'video', videoId: watch };
  const video = /^\/(?:shorts|live|embed)\/([\w-]{11})/.exec(url.pathname);
  if (video) return { kind: 'video', videoId: video[1]! };
  const channel = /^\/channel\/(UC[\w-]{22})/.exec(url.pathname);
  if (channel) return { kind: 'channel_id', channelId: channel[1]! };
  const named = /^\/(@[^/]+|c\/[^/]+|user\/[^/]+)/.exec(url.pathname);
  if (named) return { kind: 'url', url: `https://www.youtube.com/${named[1]}` };
  return null;
}
