/**
 * `GET /api/channel-monetized/:channel_id`: a live read of the channel's newest longform watch
 * pages. `monetized` is true when a page read carries ads, false when pages were read cleanly and
 * none does, and null — unknown, never "not monetized" — when every read was blocked, the channel
 * has no longform videos, or it is not (yet) in the longform index. Every check stores its verdict;
 * `previous` is the state stored before it (null the first time the channel is checked).
 *
 * The longform index of this engine: the channels the service knows as longform — a stored
 * managed-network verdict (pre-checked, or any live check) or a processing job that saw the channel
 * — whose content is longform or mixed. Shorts channels are never in it. On the live platform the
 * pages are judged by live-ad-judgement.ts, and each answer carries the signals it rests on.
 */
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import { hasFault } from '../../faults.js';
import { simulateWork } from '../../simulated-work.js';
import type { AdPage } from '../../platform/page-signals.js';
import type { PlatformChannel, PlatformProvider } from '../../platform/platform.js';
import { checkIndex } from './check-index.js';
import type { Executor } from '../../store/store.js';
import { checksSql, processedAsLongform, type AdVerdictRow } from './check-store.js';
import { checkedChannel } from './known-channel.js';
import type { AdJudgement } from './ad-judgement.js';
import { judgeLiveAdPages } from './live-ad-judgement.js';

export async function checkAdMonetization(
  request: RequestContext,
  input: ParsedInput<'monetization.ads'>,
): Promise<RouteOutput<'monetization.ads'>> {
  const { engine } = request;
  const platform = await engine.platform();
  const channel = await checkedChannel(engine, input.channel_id);
  const store = await checkIndex(engine);
  const judgement = platform.publicPages ? await judgeLiveChannel(platform, channel) : await judgeSampleChannel(request, platform, store, channel);
  const { now, previous } = await storeAdVerdict(request, channel.channel_id, judgement);
  return {
    success: true,
    channel_id: channel.channel_id,
    monetized: judgement.monetized,
    reason: judgement.reason,
    ...(judgement.hint ? { hint: judgement.hint } : {}),
    checked_at: isoTime(now),
    previous: previous
      ? {
          monetized: previous.monetized === null ? null : previous.monetized === 1,
          last_seen_monetized_at: previous.last_seen_monetized_at === null ? null : isoTime(previous.last_seen_monetized_at),
          last_seen_demonetized_at: previous.last_seen_demonetized_at === null ? null : isoTime(previous.last_seen_demonetized_at),
          last_checked_at: isoTime(previous.last_checked_at),
        }
      : null,
    ...(judgement.signals ? { signals: judgement.signals } : {}),
  };
}

/** The sample world: pages of channels in the longform index, the faults applied to them. */
async function judgeSampleChannel(request: RequestContext, platform: PlatformProvider, store: Executor, channel: PlatformChannel): Promise<AdJudgement> {
  const { engine } = request;
  const indexed = channel.content_type !== 'shorts' && (await inLongformIndex(store, channel.channel_id));
  let pages: AdPage[] = [];
  if (indexed) {
    await simulateWork(engine.settings, 'ad-check', channel.channel_id, request.signal);
    pages = await platform.readAdPages(channel.channel_id, engine.clock.now());
    const before = lastKnownVerdict(await checksSql.adVerdict(store, channel.channel_id));
    if (before !== null && hasFault(engine.settings, 'ad-flip')) pages = flippedPages(pages, !before);
    if (hasFault(engine.settings, 'ad-pages-blocked')) pages = pages.map((page) => ({ ...page, outcome: 'blocked' }));
  }
  return judgeAdPages(channel, indexed, pages);
}

/**
 * The live site: the channel's newest longform watch pages, read now. Every channel the site shows
 * counts as indexed here (the live index is not built yet; see known-channel.ts): one without
 * longform videos answers null for that reason. The sample world's faults do not touch real pages.
 */
async function judgeLiveChannel(platform: PlatformProvider, channel: PlatformChannel): Promise<AdJudgement> {
  return judgeLiveAdPages(await platform.readAdPages(channel.channel_id, platform.nowMs()));
}

/** The verdict stored last, or — when that was unknown — the state seen last; null when none was ever known. */
export function lastKnownVerdict(row: AdVerdictRow | undefined): boolean | null {
  if (!row) return null;
  if (row.monetized !== null) return row.monetized === 1;
  const { last_seen_monetized_at: on, last_seen_demonetized_at: off } = row;
  if (on === null && off === null) return null;
  return off === null || (on !== null && on > off);
}

/** The pages as the `ad-flip` fault shows them: all read, carrying ads (the newest) or none, as `monetized` says. */
function flippedPages(pages: AdPage[], monetized: boolean): AdPage[] {
  return pages.map((page, index) => ({ ...page, outcome: monetized && index === 0 ? 'ads' : 'no_ads' }));
}

/** A stored verdict or a channel a processing job indexed, both in the engine's store (a fleet's, shared). */
async function inLongformIndex(store: Executor, channelId: string): Promise<boolean> {
  return (await checksSql.verdict(store, channelId)) !== undefined || (await processedAsLongform(store, channelId));
}

/** The verdict a read of these pages supports, in plain words. */
export function judgeAdPages(channel: Pick<PlatformChannel, 'channel_id' | 'content_type'>, indexed: boolean, pages: readonly AdPage[]): AdJudgement {
  if (channel.content_type === 'shorts') {
    return {
      monetized: null,
      reason: 'Unknown: the channel publishes shorts, and this check reads longform watch pages only (the longform index holds longform and mixed channels).',
      hint: 'There is no longform page to read for this channel, so this check cannot give it a verdict.',
    };
  }
  if (!indexed) {
    const id = channel.channel_id;
    return {
      monetized: null,
      reason: 'Unknown: the channel is not yet in the longform index, so no watch page was read.',
      hint: `Add it to the index with one managed-network check — \`tubekit cms ${id}\` (GET /api/channel-cms/${id}) — or a longform processing job (\`tubekit process-channel ${id} --type longform\`); then check again: it stays in the index.`,
    };
  }
  if (pages.length === 0) {
    return {
      monetized: null,
      reason: 'Unknown: the channel has no published longform videos to read.',
      hint: 'Check again once the channel publishes a longform video.',
    };
  }
  const read = pages.filter((page) => page.outcome !== 'blocked');
  const blocked = pages.length - read.length;
  if (read.length === 0) {
    return {
      monetized: null,
      reason: `Unknown: all ${pages.length} watch page reads were blocked, so there is no verdict this run.`,
      hint: 'Watch pages block reads now and then: check again in about ten minutes.',
    };
  }
  const withAds = read.filter((page) => page.outcome === 'ads').length;
  const blockedNote = blocked > 0 ? ` (${blocked} more page read${blocked === 1 ? ' was' : 's were'} blocked)` : '';
  if (withAds > 0) {
    return { monetized: true, reason: `Ads found on ${withAds} of the ${read.length} newest longform videos read${blockedNote}.` };
  }
  return { monetized: false, reason: `Read the ${read.length} newest longform videos cleanly and found no ads${blockedNote}.` };
}

/** Stores the verdict and returns the state it replaced, in one write transaction holding the channel's lock. */
function storeAdVerdict(request: RequestContext, channelId: string, judgement: AdJudgement) {
  const { engine } = request;
  return engine.store.transaction(async (tx) => {
    await tx.lock(`ad-verdict:${channelId}`);
    const now = engine.clock.now();
    const previous = await checksSql.adVerdict(tx, channelId);
    const next: AdVerdictRow = {
      channel_id: channelId,
      monetized: judgement.monetized === null ? null : judgement.monetized ? 1 : 0,
      reason: judgement.reason,
      last_checked_at: now,
      last_seen_monetized_at: judgement.monetized === true ? now : (previous?.last_seen_monetized_at ?? null),
      last_seen_demonetized_at: judgement.monetized === false ? now : (previous?.last_seen_demonetized_at ?? null),
    };
    await checksSql.putAdVerdict(tx, next);
    return { now, previous };
  });
}
