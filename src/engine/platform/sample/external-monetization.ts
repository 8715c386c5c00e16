/**
 * What the sample world's channels sell outside the platform: derived on demand, never stored.
 *
 * A channel's profile comes from the `external` stream (channel idx): whether it sells anything
 * (rarely under 1,000 subscribers; more often the bigger it is), then one to three methods that
 * suit its category (Music: merch and tickets; Education: courses and digital products…), each with
 * the evidence a reader of its pages would find and a link to where it is (a watch page or the
 * about page), products with prices in the channel's currency, the stores they are sold in, and
 * funnel metrics (how the channel sends viewers there, and estimated click and conversion rates).
 * Store and link hosts use the reserved `.example` domain.
 */
import type { ExternalFunnel, ExternalMethod, ExternalMethodEvidence, ExternalMonetizationTruth, ExternalProduct } from '../page-signals.js';
import { clamp, rngFor, streamSeed, type Rng } from './prng.js';
import type { WorldChannel, WorldVideo } from './types.js';
import { CATEGORIES } from './words.js';

export type { ExternalFunnel, ExternalMethod, ExternalMethodEvidence, ExternalMonetizationTruth, ExternalProduct } from '../page-signals.js';


type Weights = ReadonlyArray<readonly [ExternalMethod, number]>;
const DEFAULT_WEIGHTS: Weights = [['merch', 3], ['sponsorships', 3], ['affiliate', 2], ['membership', 2]];
const METHOD_WEIGHTS: Record<string, Weights> = {
  Gaming: [['merch', 4], ['membership', 4], ['sponsorships', 3], ['affiliate', 2], ['digital_products', 1]],
  Entertainment: [['merch', 4], ['sponsorships', 4], ['membership', 3], ['tickets', 1]],
  Comedy: [['merch', 3], ['tickets', 3], ['sponsorships', 3], ['membership', 2]],
  Music: [['merch', 4], ['tickets', 4], ['membership', 2], ['digital_products', 2]],
  Education: [['course', 5], ['digital_products', 3], ['membership', 2], ['coaching', 1], ['affiliate', 1]],
  'Science & Technology': [['affiliate', 4], ['sponsorships', 4], ['course', 2], ['digital_products', 1]],
  'Howto & Style': [['affiliate', 4], ['digital_products', 3], ['course', 2], ['merch', 1]],
  'People & Blogs': [['membership', 3], ['merch', 2], ['coaching', 2], ['affiliate', 2], ['sponsorships', 2]],
  Sports: [['merch', 3], ['coaching', 3], ['membership', 2], ['affiliate', 2]],
};

type ProductTemplate = readonly [name: string, usd: number, billing?: 'monthly'];
const PRODUCTS: Partial<Record<ExternalMethod, readonly ProductTemplate[]>> = {
  merch: [['{brand} T-shirt', 25], ['{brand} hoodie', 45], ['Logo mug', 15], ['Sticker pack', 6], ['Poster', 20], ['Cap', 22]],
  course: [['{Topic} masterclass', 149], ['{Topic} for beginners', 49], ['Advanced {topic} workshop', 199]],
  membership: [['Supporter tier', 5, 'monthly'], ['Insider tier', 15, 'monthly'], ['Inner circle', 50, 'monthly']],
  digital_products: [['{Topic} preset pack', 19], ['{Topic} e-book', 12], ['Template bundle', 29]],
  coaching: [['1:1 {topic} session (60 min)', 120], ['Group coaching (4 weeks)', 299]],
  tickets: [['Live show ticket', 35], ['VIP meet & greet', 120]],
};
const STORE_HOST: Partial<Record<ExternalMethod, string>> = {
  merch: 'shop',
  course: 'learn',
  membership: 'members',
  digital_products: 'store',
  coaching: 'book',
  tickets: 'tickets',
};
const CURRENCY: Record<string, readonly [code: string, perUsd: number]> = {
  GB: ['GBP', 0.8], DE: ['EUR', 0.92], FR: ['EUR', 0.92], ES: ['EUR', 0.92], IT: ['EUR', 0.92], NL: ['EUR', 0.92],
  BR: ['BRL', 5], IN: ['INR', 83], JP: ['JPY', 150],
};
const TOPIC_BY_CATEGORY = new Map(CATEGORIES.map((category) => [category.name, category.topicWord]));
/** Offers found on the about page rather than in video descriptions. */
const ABOUT_PAGE_METHODS = new Set<ExternalMethod>(['course', 'coaching', 'tickets']);
const ENTRY_POINTS = ['video descriptions', 'pinned comments', 'about page', 'end screens', 'link hub'];

function pickMethods(rng: Rng, weights: Weights, count: number): ExternalMethod[] {
  const left = [...weights];
  const picked: ExternalMethod[] = [];
  while (picked.length < count && left.length > 0) {
    const total = left.reduce((sum, [, weight]) => sum + weight, 0);
    let x = rng.next() * total;
    const index = left.findIndex(([, weight]) => (x -= weight) < 0);
    picked.push(left.splice(index < 0 ? left.length - 1 : index, 1)[0]![0]);
  }
  return picked;
}

const watchUrl = (video: WorldVideo) =>
  video.kind === 'short' ? `https://www.youtube.com/shorts/${video.video_id}` : `https://www.youtube.com/watch?v=${video.video_id}`;

/** The channel's external monetization as its pages show it; `videos` are its recent uploads, newest first. */
export function externalMonetizationOf(seed: string, channel: WorldChannel, videos: readonly WorldVideo[]): ExternalMonetizationTruth {
  const rng = rngFor(streamSeed(seed, 'external'), channel.idx);
  const bigness = clamp(Math.log10(channel.subscribers + 1) / 7, 0, 1);
  const sells = rng.chance(channel.subscribers < 1_000 ? 0.08 : 0.15 + 0.5 * bigness);
  if (!sells) return { methods: [], products: [], store_urls: [], funnel: null };

  const slug = channel.handle.replace(/^@/, '').replace(/[^a-z0-9-]/g, '-');
  const aboutUrl = `https://www.youtube.com/${channel.handle}/about`;
  const published = videos.filter((video) => video.kind !== 'upcoming');
  const newest = published.length;
  const [currency, perUsd] = CURRENCY[channel.country] ?? ['USD', 1];
  const topic = TOPIC_BY_CATEGORY.get(channel.category) ?? 'video';
  const fill = (template: string) =>
    template.replace('{brand}', channel.title).replace('{Topic}', topic.charAt(0).toUpperCase() + topic.slice(1)).replace('{topic}', topic);

  const methods = pickMethods(rng, METHOD_WEIGHTS[channel.category] ?? DEFAULT_WEIGHTS, rng.int(1, 3));
  const evidence: ExternalMethodEvidence[] = [];
  const products: ExternalProduct[] = [];
  const stores: string[] = [];
  let linking = 0;
  for (const method of methods) {
    const mentions = newest === 0 ? 0 : rng.int(Math.ceil(newest / 3), newest);
    linking = Math.max(linking, mentions);
    const source = published[rng.int(0, Math.max(0, Math.min(newest, 3) - 1))];
    const host = STORE_HOST[method];
    const store = host ? `https://${host}.${slug}.example/` : null;
    if (store) stores.push(store);
    const sourceUrl = source && !ABOUT_PAGE_METHODS.has(method) ? watchUrl(source) : aboutUrl;
    evidence.push({ method, evidence: describeEvidence(method, mentions, newest, store, slug), source_url: sourceUrl });
    const templates = PRODUCTS[method] ?? [];
    const offered = templates.length === 0 ? [] : rng.shuffle([...templates]).slice(0, rng.int(1, Math.min(3, templates.length)));
    for (const [name, usd, billing] of offered) {
      products.push({
        name: fill(name),
        method,
        price: Math.round(usd * perUsd * (0.85 + rng.next() * 0.3)) - (perUsd < 10 ? 0.01 : 0),
        currency,
        billing: billing ?? 'one_time',
        url: `${store}${fill(name).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`,
      });
    }
  }

  const ctr = Math.round(rng.float(0.002, 0.03) * 10_000) / 10_000;
  const hub = rng.chance(0.4) ? `https://links.example/${slug}` : null;
  const entryPoints = ENTRY_POINTS.filter((point) => (point === 'link hub' ? hub !== null : point === 'video descriptions' || rng.chance(0.5)));
  return {
    methods: evidence,
    products,
    store_urls: stores,
    funnel: {
      entry_points: entryPoints,
      description_link_share: newest === 0 ? 0 : Math.round((linking / newest) * 100) / 100,
      link_hub_url: hub,
      email_capture: rng.chance(0.35),
      est_monthly_link_clicks: Math.round(Math.max(0, channel.model.view_rate) * 30 * ctr),
      est_click_through_rate: ctr,
      est_conversion_rate: Math.round(rng.float(0.005, 0.05) * 10_000) / 10_000,
    },
  };
}

function describeEvidence(method: ExternalMethod, mentions: number, newest: number, store: string | null, slug: string): string {
  const host = store ? new URL(store).host : '';
  const share = `${mentions} of the ${newest} newest video descriptions`;
  switch (method) {
    case 'merch':
      return `${share} link to the merch store ${host}.`;
    case 'course':
      return `The about page and pinned comments promote paid courses at ${host}.`;
    case 'membership':
      return `${share} invite viewers to a paid membership at ${host}.`;
    case 'digital_products':
      return `${share} link to downloadable products sold at ${host}.`;
    case 'coaching':
      return `The about page offers paid coaching sessions booked at ${host}.`;
    case 'tickets':
      return `The about page lists live dates with tickets at ${host}.`;
    case 'affiliate':
      return `${share} carry affiliate links (go.partner-links.example/${slug}).`;
    case 'sponsorships':
      return `${mentions} of the ${newest} newest videos include a sponsor segment.`;
  }
}
