/**
 * The external-monetization classifier on the live site. It reads the channel's links, its
 * description and its newest videos' descriptions (and whether their pages disclose paid
 * promotion); maps link hosts and calls to action to methods (link-rules.ts), each with its evidence
 * and where it was seen; reads up to STORES_READ of the stores it links to for products and prices
 * (store-products.ts; pages fetched through the live platform's origin and proxy rules, within a
 * size and time limit); and computes the funnel from what it found. Estimates are labelled `est_`
 * and their formulas are in the README.
 */
import { ServiceError } from '../../../../core/errors.js';
import type { ExternalFunnel, ExternalMethod, ExternalMethodEvidence, ExternalMonetizationTruth, ExternalProduct } from '../../../platform/page-signals.js';
import type { ChannelPages, PublicPageReads } from '../../../platform/public-pages.js';
import { classifyLink, EMAIL_PHRASE, linksIn, PHRASES } from './link-rules.js';
import { declaredCurrency, isShopify, jsonLdProducts, shopifyProducts, shopifyProductsUrl, type StoreProduct } from './store-products.js';

/** Stored results made by another version are never reused under `cached_ok_secs`. */
export const LIVE_EXTERNAL_CLASSIFIER_VERSION = 'live-2026.11.1';
/** Newest longform videos whose descriptions are read. */
export const EXTERNAL_VIDEOS_READ = 6;
/** Stores read for products, at most. */
export const STORES_READ = 3;

const DAY_MS = 86_400_000;
/** Methods sold in a store of the channel's (their links are store URLs). */
const STORE_METHODS = new Set<ExternalMethod>(['merch', 'course', 'digital_products', 'coaching', 'tickets', 'membership']);
/** Assumed share of link clicks that buy, per method: the conversion estimate averages those found. */
const CONVERSION: Partial<Record<ExternalMethod, number>> = {
  merch: 0.01,
  course: 0.005,
  digital_products: 0.02,
  membership: 0.008,
  coaching: 0.003,
  tickets: 0.015,
  affiliate: 0.03,
};

type Place = 'about page' | 'video descriptions';

interface Finding {
  method: ExternalMethod;
  what: string;
  place: Place;
  /** The page it was seen on. */
  source: string;
  /** The link it points to, for links. */
  target?: URL;
  /** The words seen, for calls to action and disclosures. */
  phrase?: string;
  videoId?: string;
}

export interface Offers {
  findings: Finding[];
  hubs: string[];
  email: boolean;
  /** Videos whose description links to an offer or a link hub. */
  linkingVideos: Set<string>;
}

/** The classification of the channel's pages; a 502 (nothing stored) when the pages could not be read. */
export async function classifyPublicPages(reads: PublicPageReads, channelId: string, nowMs: number): Promise<ExternalMonetizationTruth> {
  const pages = await reads.channelPages(channelId, { videos: EXTERNAL_VIDEOS_READ, licensing: false });
  if (!pages) throw unreadable(`the site no longer shows channel ${channelId}`);
  // Nothing found on pages that were never read is not "sells nothing".
  if (pages.videos.length === 0 && pages.unread.length > 0) throw unreadable(`the site refused all ${pages.unread.length} of the channel's newest video pages`);
  const offers = findOffers(pages);
  const stores = storeLinks(offers.findings);
  const products: ExternalProduct[] = [];
  for (const store of stores.slice(0, STORES_READ)) {
    for (const product of await readStore(reads, store.url)) products.push({ ...product, method: store.method });
  }
  return {
    methods: evidenceOf(pages, offers.findings),
    products,
    store_urls: stores.map((store) => store.url),
    funnel: funnelOf(pages, offers, nowMs),
  };
}

/** Every offer the pages show: links by host and words, sentences by wording. */
export function findOffers(pages: ChannelPages): Offers {
  const offers: Offers = { findings: [], hubs: [], email: false, linkingVideos: new Set() };
  const seeLink = (url: URL, context: string, place: Place, source: string, videoId?: string) => {
    const kind = classifyLink(url, context);
    if (kind.kind === 'hub' && !offers.hubs.includes(url.href)) offers.hubs.push(url.href);
    if (kind.kind === 'email') offers.email = true;
    if (kind.kind === 'method') offers.findings.push({ method: kind.method, what: kind.what, place, source, target: url, videoId });
    if (videoId && (kind.kind === 'method' || kind.kind === 'hub')) offers.linkingVideos.add(videoId);
  };
  const seeText = (text: string, place: Place, source: string, videoId?: string) => {
    for (const { url, context } of linksIn(text)) seeLink(url, context, place, source, videoId);
    for (const line of text.split(/\r?\n/)) {
      for (const rule of PHRASES) {
        const match = rule.pattern.exec(line);
        if (match) offers.findings.push({ method: rule.method, what: rule.what, place, source, phrase: excerpt(line), videoId });
      }
      if (EMAIL_PHRASE.test(line)) offers.email = true;
    }
  };
  for (const link of pages.links) {
    try {
      seeLink(new URL(link.url), link.title, 'about page', pages.channel_url);
    } catch {
      // a link that is not a URL
    }
  }
  seeText(pages.description, 'about page', pages.channel_url);
  for (const video of pages.videos) {
    seeText(video.description, 'video descriptions', video.url, video.video_id);
    if (video.paid_promotion) {
      offers.findings.push({ method: 'sponsorships', what: 'a paid-promotion disclosure', place: 'video descriptions', source: video.url, phrase: 'Includes paid promotion', videoId: video.video_id });
    }
  }
  return offers;
}

function unreadable(why: string): ServiceError {
  return new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: `The monetization classifier could not read the channel's pages: ${why}. Nothing was stored.`,
    hint: 'Try again later (skip_live=1, `--skip-live` on the CLI, answers the last stored result meanwhile); if the site keeps refusing, slow down (TUBEKIT_PLATFORM_RATE), use a proxy (TUBEKIT_PROXY) or a cookies file (TUBEKIT_COOKIES).',
  });
}

/** The stores the channel links to, once each, in the order first seen. */
function storeLinks(findings: Finding[]): Array<{ url: string; method: ExternalMethod }> {
  const stores: Array<{ url: string; method: ExternalMethod }> = [];
  for (const finding of findings) {
    if (!finding.target || !STORE_METHODS.has(finding.method)) continue;
    const url = finding.target.href;
    if (!stores.some((store) => store.url === url)) stores.push({ url, method: finding.method });
  }
  return stores;
}

/** A store's products: its page's JSON-LD, else a Shopify store's product list; none when neither reads. */
async function readStore(reads: PublicPageReads, url: string): Promise<StoreProduct[]> {
  const page = await reads.outsidePage(url);
  if (!page.ok || page.status !== 200) return [];
  const products = jsonLdProducts(page.text, page.url);
  if (products.length > 0 || !isShopify(page.text, page.url)) return products;
  const currency = declaredCurrency(page.text);
  if (!currency) return [];
  const list = await reads.outsidePage(shopifyProductsUrl(page.url));
  return list.ok && list.status === 200 ? shopifyProducts(list.text, page.url, currency) : [];
}

/** One entry per method, in the order first seen: what was seen where, in plain words, and the first page it was seen on. */
function evidenceOf(pages: ChannelPages, findings: Finding[]): ExternalMethodEvidence[] {
  const methods = [...new Set(findings.map((finding) => finding.method))];
  const read = pages.videos.length;
  return methods.map((method) => {
    const mine = findings.filter((finding) => finding.method === method);
    const sentences: string[] = [];
    const aboutLinks = mine.filter((finding) => finding.place === 'about page' && finding.target);
    if (aboutLinks.length > 0) sentences.push(`The about page links to ${aboutLinks[0]!.what} (${hosts(aboutLinks)}).`);
    const aboutWords = mine.find((finding) => finding.place === 'about page' && finding.phrase);
    if (aboutWords) sentences.push(`The channel description carries ${aboutWords.what}: "${aboutWords.phrase}".`);
    const videoLinks = mine.filter((finding) => finding.place === 'video descriptions' && finding.target);
    if (videoLinks.length > 0) sentences.push(`${videosOf(videoLinks, read)} ${verb(videoLinks, 'link')} to ${videoLinks[0]!.what} (${hosts(videoLinks)}).`);
    const videoWords = mine.filter((finding) => finding.place === 'video descriptions' && finding.phrase);
    if (videoWords.length > 0) sentences.push(`${videosOf(videoWords, read, 'videos')} ${verb(videoWords, 'carry')} ${videoWords[0]!.what} ("${videoWords[0]!.phrase}").`);
    return { method, evidence: sentences.join(' '), source_url: mine[0]!.source };
  });
}

function funnelOf(pages: ChannelPages, offers: Offers, nowMs: number): ExternalFunnel | null {
  const { findings, hubs } = offers;
  if (findings.length === 0 && hubs.length === 0 && !offers.email) return null;
  const read = pages.videos.length;
  const counts: Record<string, number> = {
    'video descriptions': findings.filter((finding) => finding.place === 'video descriptions').length,
    'about page': findings.filter((finding) => finding.place === 'about page').length,
    'link hub': hubs.length,
  };
  const entryPoints = Object.keys(counts)
    .filter((point) => counts[point]! > 0)
    .sort((a, b) => counts[b]! - counts[a]!);
  const share = read === 0 ? 0 : round(offers.linkingVideos.size / read, 2);
  const aboutOffers = counts['about page']! > 0;
  const ctr = round(Math.min(0.03, (aboutOffers ? 0.002 : 0) + 0.01 * share + (hubs.length > 0 ? 0.002 : 0)), 4);
  const rates = [...new Set(findings.map((finding) => finding.method))].flatMap((method) => (CONVERSION[method] === undefined ? [] : [CONVERSION[method]]));
  const conversion = rates.length === 0 ? 0 : round(rates.reduce((sum, rate) => sum + rate, 0) / rates.length, 4);
  return {
    entry_points: entryPoints,
    description_link_share: share,
    link_hub_url: hubs[0] ?? null,
    email_capture: offers.email,
    est_monthly_link_clicks: Math.round(monthlyViews(pages, nowMs) * ctr),
    est_click_through_rate: ctr,
    est_conversion_rate: conversion,
  };
}

/** Views a month, from the newest videos read: their views over the days they cover (at least a week). */
function monthlyViews(pages: ChannelPages, nowMs: number): number {
  // Only videos with both a count and a date say anything about views a month.
  const dated = pages.videos.flatMap((video) => (video.views !== null && video.published_at !== null ? [{ views: video.views, at: Date.parse(video.published_at) }] : [])).filter((video) => Number.isFinite(video.at));
  if (dated.length === 0) return 0;
  const oldest = Math.min(...dated.map((video) => video.at));
  const days = Math.max(7, (nowMs - oldest) / DAY_MS);
  return (dated.reduce((sum, video) => sum + video.views, 0) / days) * 30;
}

const hosts = (findings: Finding[]) => [...new Set(findings.map((finding) => finding.target!.hostname.replace(/^www\./, '')))].join(', ');
const videoCount = (findings: Finding[]) => new Set(findings.map((finding) => finding.videoId)).size;
const videosOf = (findings: Finding[], read: number, what = 'video descriptions') => `${videoCount(findings)} of the ${read} newest ${what}`;
/** "1 of the 6 … links", "2 of the 6 … link". */
const verb = (findings: Finding[], plural: 'link' | 'carry') => (videoCount(findings) !== 1 ? plural : plural === 'carry' ? 'carries' : 'links');
const excerpt = (line: string) => {
  const trimmed = line.trim();
  return trimmed.length > 100 ? `${trimmed.slice(0, 99)}…` : trimmed;
};
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
