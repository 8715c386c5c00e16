/** The about panel (`aboutChannelViewModel`): exact-looking counts, join date, country, links. */
import type { ChannelLink } from './types.js';
import { asString, at, findAll, findFirst, type Json, textOf } from './json-walk.js';

export interface AboutView {
  channelId: string | null;
  description: string | null;
  subscriberText: string | null;
  viewText: string | null;
  videoText: string | null;
  joinedText: string | null;
  country: string | null;
  links: ChannelLink[];
}

export function parseAboutView(response: Json): AboutView | null {
  const view = findFirst(response, 'aboutChannelViewModel');
  if (!view || typeof view !== 'object') return null;
  const links = findAll(at(view, 'links'), 'channelExternalLinkViewModel').map((link) => {
    const shown = textOf(at(link, 'link')) ?? '';
    const url = redirectTarget(link) ?? (shown && !/^https?:/.test(shown) ? `https://${shown}` : shown);
    return { title: textOf(at(link, 'title')) ?? shown, url };
  });
  return {
    channelId: asString(at(view, 'channelId')) ?? null,
    description: textOf(at(view, 'description')) ?? null,
    subscriberText: textOf(at(view, 'subscriberCountText')) ?? null,
    viewText: textOf(at(view, 'viewCountText')) ?? null,
    videoText: textOf(at(view, 'videoCountText')) ?? null,
    joinedText: textOf(at(view, 'joinedDateText')) ?? null,
    country: textOf(at(view, 'country')) ?? null,
    links,
  };
}

/** The address a link's site redirect leads to (its `q`): whole, where the shown text may be cut short. */
function redirectTarget(link: Json): string | undefined {
  for (const url of findAll(link, 'url')) {
    if (typeof url !== 'string' || !url.includes('/redirect?')) continue;
    const target = new URL(url, 'https://www.youtube.com').searchParams.get('q');
    if (target && /^https?:\/\//i.test(target)) return target;
  }
  return undefined;
}
