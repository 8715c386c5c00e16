/**
 * `GET /api/channel-external-monetization/:channel_id`: what a channel sells outside the platform.
 * Without parameters the classifier runs live (up to 60 s on the hosted service) and its result is
 * stored. `skip_live` answers what is stored (`classified: false` when nothing is); `cached_ok_secs`
 * reuses the stored result only when it is younger than that many seconds and was made by the
 * current classifier version, and otherwise runs live. A failing classifier answers 502 and stores
 * nothing.
 *
 * The sample world knows what each channel sells; on the live platform the classifier reads the
 * channel's public pages and the stores they link to (external/live-classifier.ts), with a
 * classifier version of its own.
 */
import { ServiceError } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import { hasFault } from '../../faults.js';
import { simulateWork } from '../../simulated-work.js';
import type { ExternalMethod, ExternalMonetizationTruth } from '../../platform/page-signals.js';
import type { PlatformChannel, PlatformProvider } from '../../platform/platform.js';
import { checksSql, type ExternalRow } from './check-store.js';
import { classifyPublicPages, LIVE_EXTERNAL_CLASSIFIER_VERSION } from './external/live-classifier.js';
import { checkedChannel } from './known-channel.js';

type ExternalBody = RouteOutput<'monetization.external'>;

/** Stored results made by another version are never reused under `cached_ok_secs`. */
export const EXTERNAL_CLASSIFIER_VERSION = 'sample-2026.11';

/** The classifier of this platform: the sample world's, or the live pages' (a version of its own). */
const classifierVersion = (platform: PlatformProvider) => (platform.publicPages ? LIVE_EXTERNAL_CLASSIFIER_VERSION : EXTERNAL_CLASSIFIER_VERSION);

/** What the classifier stores: everything of the body but the per-request fields. */
type Classification = Pick<ExternalBody, 'summary' | 'methods' | 'products' | 'store_urls' | 'funnel'>;

export async function externalMonetization(
  request: RequestContext,
  input: ParsedInput<'monetization.external'>,
): Promise<ExternalBody> {
  const { engine } = request;
  const platform = await engine.platform();
  const channel = await checkedChannel(engine, input.channel_id);
  const stored = await checksSql.external(engine.store, channel.channel_id);
  const version = classifierVersion(platform);
  if (input.skip_live) return stored ? storedBody(stored) : unclassified(channel.channel_id);
  if (input.cached_ok_secs !== undefined && stored && reusable(stored, version, input.cached_ok_secs * 1000, engine.clock.now())) {
    return storedBody(stored);
  }
  if (platform.simulation) await simulateWork(engine.settings, 'monetization-classifier', channel.channel_id, request.signal);
  if (hasFault(engine.settings, 'monetization-classifier-fail')) {
    throw new ServiceError({
      status: 502,
      code: 'upstream_error',
      message: 'The monetization classifier failed on this channel; nothing was stored.',
      hint: 'Try again later; skip_live=1 (`--skip-live` on the CLI) answers the last stored result meanwhile.',
    });
  }
  const truth = platform.publicPages
    ? await classifyPublicPages(platform.publicPages, channel.channel_id, platform.nowMs())
    : await platform.externalMonetization(channel.channel_id);
  const classification = classify(channel, truth ?? { methods: [], products: [], store_urls: [], funnel: null });
  const row: ExternalRow = {
    channel_id: channel.channel_id,
    classifier_version: version,
    classified_at: engine.clock.now(),
    result: JSON.stringify(classification),
  };
  await checksSql.putExternal(engine.store, row);
  return { ...header(row), checked_live: true, ...classification };
}

function reusable(stored: ExternalRow, version: string, maxAgeMs: number, now: number): boolean {
  return stored.classifier_version === version && now - stored.classified_at < maxAgeMs;
}

function header(row: ExternalRow) {
  return {
    success: true as const,
    channel_id: row.channel_id,
    classified: true,
    classifier_version: row.classifier_version,
    classified_at: isoTime(row.classified_at),
  };
}

function storedBody(row: ExternalRow): ExternalBody {
  return { ...header(row), checked_live: false, ...(JSON.parse(row.result) as Classification) };
}

function unclassified(channelId: string): ExternalBody {
  return {
    success: true,
    channel_id: channelId,
    classified: false,
    checked_live: false,
    classifier_version: null,
    classified_at: null,
    summary: null,
    methods: [],
    products: [],
    store_urls: [],
    funnel: null,
  };
}

const METHOD_WORDS: Record<ExternalMethod, string> = {
  merch: 'merch',
  course: 'online courses',
  membership: 'a paid membership',
  digital_products: 'digital products',
  coaching: 'coaching',
  tickets: 'event tickets',
  affiliate: 'affiliate links',
  sponsorships: 'sponsorships',
};

/** The classifier: what the channel's pages show, summed up in plain words. */
export function classify(channel: Pick<PlatformChannel, 'title'>, truth: ExternalMonetizationTruth): Classification {
  const selling = truth.methods.filter((entry) => entry.method !== 'affiliate' && entry.method !== 'sponsorships');
  const earning = truth.methods.filter((entry) => entry.method === 'affiliate' || entry.method === 'sponsorships');
  const list = (entries: typeof truth.methods) => joinWords(entries.map((entry) => METHOD_WORDS[entry.method]));
  let summary: string;
  if (truth.methods.length === 0) {
    summary = `${channel.title} shows no external monetization: no store, paid offer, affiliate link or sponsor was found.`;
  } else if (selling.length > 0) {
    const products = truth.products.length;
    summary =
      `${channel.title} sells ${list(selling)} (${products} product${products === 1 ? '' : 's'} in ${truth.store_urls.length} store${truth.store_urls.length === 1 ? '' : 's'})` +
      (earning.length > 0 ? ` and earns from ${list(earning)}.` : '.');
  } else {
    summary = `${channel.title} sells nothing of its own but earns from ${list(earning)}.`;
  }
  return { summary, methods: truth.methods, products: truth.products, store_urls: truth.store_urls, funnel: truth.funnel };
}

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
