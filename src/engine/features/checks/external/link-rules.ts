/**
 * What a link or a sentence on a channel's pages says about how it earns outside the platform: the
 * rules of the live classifier. A link is judged by its host first (a membership platform, a
 * print-on-demand store, a course platform, an affiliate short link…), then by the words around it
 * (the link's title, its line and the line before: "Merch:", "Tickets for the tour…"); sentences
 * without links by their wording (sponsorship and affiliate disclosures, the Join button). Social
 * profiles and music streaming links are not monetization; link-in-bio pages and newsletter sign-ups
 * feed the funnel.
 */
import type { ExternalMethod } from '../../../platform/page-signals.js';

export type LinkKind = { kind: 'method'; method: ExternalMethod; what: string } | { kind: 'hub' } | { kind: 'email' } | { kind: 'other' };

const HOSTS: ReadonlyArray<readonly [ExternalMethod, string, readonly string[]]> = [
  ['membership', 'a membership and support page', ['patreon.com', 'ko-fi.com', 'buymeacoffee.com', 'memberful.com', 'subscribestar.com', 'locals.com', 'fanhouse.app']],
  [
    'merch',
    'a merch store',
    ['myshopify.com', 'teespring.com', 'creator-spring.com', 'spri.ng', 'fourthwall.com', 'represent.com', 'bonfire.com', 'redbubble.com', 'teepublic.com', 'spreadshirt.com', 'spreadshop.com', 'merchbar.com', 'threadless.com', 'crowdmade.com', 'etsy.com', 'shopmy.us'],
  ],
  ['course', 'a course platform', ['teachable.com', 'thinkific.com', 'kajabi.com', 'mykajabi.com', 'podia.com', 'skool.com', 'udemy.com', 'maven.com', 'learnworlds.com']],
  ['digital_products', 'a digital products store', ['gumroad.com', 'payhip.com', 'sellfy.com', 'lemonsqueezy.com', 'stan.store', 'sendowl.com']],
  ['coaching', 'a booking page', ['calendly.com', 'cal.com', 'intro.co', 'clarity.fm', 'tidycal.com']],
  ['tickets', 'a ticket seller', ['ticketmaster.com', 'ticketmaster.co.uk', 'eventbrite.com', 'eventbrite.co.uk', 'dice.fm', 'seetickets.com', 'bandsintown.com', 'songkick.com', 'axs.com', 'ticketweb.com', 'livenation.com']],
  ['affiliate', 'shops through affiliate links', ['amzn.to', 'amzn.eu', 'a.co', 'geni.us', 'bhpho.to', 'howl.me', 'rstyle.me', 'shopstyle.it', 'go.skimresources.com', 'shareasale.com', 'awin1.com', 'click.linksynergy.com', 'prf.hn', 'liketk.it', 'shopltk.com', 'kit.co']],
];
const HUBS = ['linktr.ee', 'beacons.ai', 'lnk.bio', 'bio.link', 'linkin.bio', 'campsite.bio', 'hoo.be', 'komi.io', 'solo.to', 'taplink.cc', 'allmylinks.com'];
const EMAIL = ['substack.com', 'ck.page', 'convertkit.com', 'mailchi.mp', 'eepurl.com', 'beehiiv.com', 'buttondown.email'];
/** Social profiles, streaming and smart links: where a channel is, not what it sells. */
const NOT_MONETIZATION = [
  'instagram.com', 'twitter.com', 'x.com', 'tiktok.com', 'facebook.com', 'discord.gg', 'discord.com', 'twitch.tv', 'threads.net', 'linkedin.com', 'reddit.com',
  'snapchat.com', 'pinterest.com', 'bsky.app', 'spotify.com', 'music.apple.com', 'itunes.apple.com', 'soundcloud.com', 'deezer.com', 'tidal.com', 'music.youtube.com',
  'youtube.com', 'youtu.be', 'lnk.to', 'ffm.to', 'smarturl.it', 'found.ee', 'wikipedia.org',
];

/** Words around a link that name what it leads to, for hosts the rules do not know. */
const WORDS: ReadonlyArray<readonly [ExternalMethod, string, RegExp]> = [
  ['merch', 'a merch store', /\b(merch(andise)?|shop|store|apparel|t-?shirts?|hoodies?)\b/i],
  ['course', 'a course', /\b(courses?|masterclass(es)?|academy|bootcamp|workshops?)\b/i],
  ['digital_products', 'digital products', /\b(presets?|luts?|e-?books?|templates?|sample packs?|downloads?)\b/i],
  ['coaching', 'coaching', /\b(coaching|1[:-]1|1-on-1|one-on-one|book a call|consultations?|mentoring)\b/i],
  ['tickets', 'tickets', /\b(tickets?|tour dates|live shows?|on sale now)\b/i],
  ['membership', 'a membership', /\b(memberships?|join (my|the|our) (community|club)|support (me|us|the channel))\b/i],
];

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, '');
const under = (host: string, domains: readonly string[]) => domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
const onAmazon = (host: string) => /(^|\.)amazon\.[a-z.]+$/.test(host);

/** What a link leads to, by its host and address, then by the words around it. */
export function classifyLink(url: URL, context: string): LinkKind {
  const host = hostOf(url);
  if (under(host, ['youtube.com']) && /\/join\/?$/.test(url.pathname)) return { kind: 'method', method: 'membership', what: "the channel's membership (Join) page" };
  for (const [method, what, domains] of HOSTS) if (under(host, domains)) return { kind: 'method', method, what };
  const tagged = (onAmazon(host) && url.searchParams.has('tag')) || ['aff', 'affiliate', 'aff_id', 'affid', 'aff_sub'].some((name) => url.searchParams.has(name));
  if (tagged) return { kind: 'method', method: 'affiliate', what: 'shops through affiliate links' };
  if (under(host, HUBS)) return { kind: 'hub' };
  if (under(host, EMAIL)) return { kind: 'email' };
  if (under(host, NOT_MONETIZATION) || onAmazon(host)) return { kind: 'other' };
  if (/^(shop|store|merch)\./.test(host)) return { kind: 'method', method: 'merch', what: 'a merch store' };
  for (const [method, what, words] of WORDS) if (words.test(context)) return { kind: 'method', method, what };
  if (/\b(newsletter|mailing list|email list)\b/i.test(context)) return { kind: 'email' };
  return { kind: 'other' };
}

/** What a sentence without a link discloses. */
export interface PhraseRule {
  method: ExternalMethod;
  what: string;
  pattern: RegExp;
}

export const PHRASES: readonly PhraseRule[] = [
  { method: 'sponsorships', what: 'a sponsorship', pattern: /\b(sponsored by|thanks? (to )?\S+(\s\S+){0,3} for sponsoring|this (video|episode) is sponsored|paid promotion|#sponsored|#ad\b|in partnership with)/i },
  { method: 'sponsorships', what: 'a sponsor code', pattern: /\b[Uu]se (my )?(promo )?code\s+["“']?[A-Z0-9]{3,}/ },
  {
    method: 'affiliate',
    what: 'an affiliate disclosure',
    pattern: /\b(affiliate links?|as an amazon associate|(earn|get|receive) (a )?(small )?commission|may (give|earn) me (some )?(money|a commission)|purchases made (from|through) (store|these|the) links)/i,
  },
  { method: 'membership', what: "a call to join the channel's membership", pattern: /\b(join (this|my|the) channel|become a (channel )?member|click(ing)? the\s+\W?join\W?\s+button|channel membership|\w+ membership by clicking)/i },
  { method: 'tickets', what: 'a ticket sale', pattern: /\b(tickets? (for|on sale)|on sale now|tour dates)\b/i },
];

export const EMAIL_PHRASE = /\b(newsletter|mailing list|email list|sign up for (my|our) (emails?|list))\b/i;

/** The http(s) links written in a text, as URLs, each with its line and the line before (the words around it). */
export function linksIn(text: string): Array<{ url: URL; context: string }> {
  const lines = text.split(/\r?\n/);
  const found: Array<{ url: URL; context: string }> = [];
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/https?:\/\/[^\s<>"'()[\]{}]+/gi)) {
      try {
        const url = new URL(match[0].replace(/[.,;:!?…]+$/, ''));
        found.push({ url, context: `${lines[index - 1] ?? ''}\n${line}` });
      } catch {
        // not a URL after all
      }
    }
  });
  return found;
}
