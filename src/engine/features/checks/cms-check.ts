/**
 * `GET /api/channel-cms/:channel_id`: the managed-network status of a channel.
 *
 * A stored verdict (pre-checked or from an earlier live check) is answered at once and counts as a
 * lookup (Starter's daily cap). An unchecked channel, or `refresh=1`, runs a live check (10–60 s on
 * the hosted service) that counts against the hourly live-check cap and stores its verdict. A
 * request finding a live check of the channel already running joins it instead of starting
 * another: it counts as a lookup and answers with that check's verdict (`checked_live: false`,
 * since this request did not run it). Deciding which of the three applies, taking the cap's slot
 * and claiming the live check happen in one write transaction.
 *
 * On the sample platform a live check reads who manages the channel from the world (after its
 * simulated work); on the live platform it reads the channel's public pages and reports `managed`
 * only on a strong public signal, else no verdict (`unchecked`) — see live-network-judgement.ts.
 */
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import { hasFault } from '../../faults.js';
import type { NetworkOwner } from '../../platform/networks.js';
import type { PageSignal } from '../../platform/page-signals.js';
import type { PlatformChannel, PlatformProvider } from '../../platform/platform.js';
import type { PublicPageReads } from '../../platform/public-pages.js';
import { durationFor, simulateWork, workDuration } from '../../simulated-work.js';
import { checkIndex } from './check-index.js';
import type { Executor } from '../../store/store.js';
import { checksSql, type CmsVerdictRow } from './check-store.js';
import { takeLiveCheck, takeLookup } from './cms-caps.js';
import { CmsAnswer } from './cms-answer.js';
import { averageViews, checkedChannel } from './known-channel.js';
import { awaitLiveCheck, claimLiveCheck, finishLiveCheck, isRunning, type LiveOutcome, releaseLiveCheck } from './live-claim.js';
import { judgeNetworkPages, NETWORK_PAGES_READ } from './live-network-judgement.js';

type Step = { kind: 'stored'; verdict: CmsVerdictRow } | { kind: 'run'; token: string } | { kind: 'join'; token: string };

/** How long a live check on the live site may take before another request may take it over (the spec's 60 s). */
const LIVE_SITE_CHECK_MS = 60_000;

export async function checkManagedNetwork(
  request: RequestContext,
  input: ParsedInput<'cms.check'>,
): Promise<RouteOutput<'cms.check'>> {
  const { engine } = request;
  const platform = await engine.platform();
  const channel = await checkedChannel(engine, input.channel_id);
  const channelId = channel.channel_id;
  const store = await checkIndex(engine);
  const answer = new CmsAnswer(request, store, channelId, input.full_network);
  const plannedMs = platform.simulation ? durationFor(channelId, workDuration(engine.settings, 'cms-live-check')) : LIVE_SITE_CHECK_MS;
  let joined = false;
  for (;;) {
    const step = await decide(request, channelId, input.refresh, joined, plannedMs);
    if (step.kind === 'stored') return answer.stored(step.verdict);
    if (step.kind === 'run') return answer.afterLiveCheck(await runLiveCheck(request, store, channel, step.token), true);
    // Joined: one lookup is counted, however long the wait or whatever happens to the check.
    joined = true;
    const outcome = await awaitLiveCheck(store, engine.clock, channelId, step.token, request.signal);
    if (outcome) return answer.afterLiveCheck(outcome, false);
  }
}

/** The channel's lock: two servers deciding on one channel at once never both claim its live check. */
const channelLock = (channelId: string) => `cms-check:${channelId}`;

function decide(request: RequestContext, channelId: string, refresh: boolean, joined: boolean, plannedMs: number): Promise<Step> {
  const { engine } = request;
  return engine.store.transaction(async (tx): Promise<Step> => {
    await tx.lock(channelLock(channelId));
    const now = engine.clock.now();
    const verdict = await checksSql.verdict(tx, channelId);
    if (verdict && !refresh) {
      if (!joined) await takeLookup(request, tx);
      return { kind: 'stored', verdict };
    }
    const claim = await checksSql.claim(tx, channelId);
    if (isRunning(claim, now)) {
      if (!joined) await takeLookup(request, tx);
      return { kind: 'join', token: claim.token };
    }
    await takeLiveCheck(request, tx);
    return { kind: 'run', token: await claimLiveCheck(tx, channelId, now, plannedMs) };
  });
}

/** What a live check found: the channel as read (null: no verdict) and its owner, or why there is no verdict. */
interface Finding {
  channel: PlatformChannel | null;
  owner: NetworkOwner | null;
  /** Live platform: the public signals the finding rests on, and — without a verdict — why, and what to do. */
  signals?: PageSignal[];
  note?: string;
  hint?: string;
}

/** Runs the claimed live check and stores its verdict; returns its outcome. A check that fails or is abandoned is released. */
async function runLiveCheck(request: RequestContext, store: Executor, checked: PlatformChannel, token: string): Promise<LiveOutcome> {
  const { engine } = request;
  const channelId = checked.channel_id;
  const platform = await engine.platform();
  let finding: Finding;
  try {
    finding = platform.publicPages ? await readPublicPages(platform.publicPages, checked) : await readSampleWorld(request, platform, channelId);
  } catch (error) {
    // Abandoned (the caller went away) or failed: whoever waits on it decides again.
    await releaseLiveCheck(store, channelId, token);
    throw error;
  }
  const { channel, owner } = finding;
  const outcome: LiveOutcome = {
    verdict: channel !== null,
    ...(finding.signals ? { signals: finding.signals } : {}),
    ...(finding.note ? { note: finding.note } : {}),
    ...(finding.hint ? { hint: finding.hint } : {}),
  };
  await engine.store.transaction(async (tx) => {
    const now = engine.clock.now();
    if (channel) {
      if (owner) await checksSql.putOwner(tx, owner);
      await checksSql.putVerdict(tx, {
        channel_id: channelId,
        status: owner ? 'managed' : 'not_managed',
        oid: owner?.oid ?? null,
        checked_at: now,
        source: 'live',
        name: channel.title,
        subscribers: channel.subscribers,
        avg_views: averageViews(channel),
        language: channel.language,
        category: channel.category,
      });
      if (finding.signals) await checksSql.putVerdictSignals(tx, channelId, JSON.stringify(finding.signals));
    }
    await finishLiveCheck(tx, channelId, token, now, outcome);
  });
  return outcome;
}

/** The sample world knows who manages each channel: a live check reads it (after its simulated work). */
async function readSampleWorld(request: RequestContext, platform: PlatformProvider, channelId: string): Promise<Finding> {
  const { engine } = request;
  await simulateWork(engine.settings, 'cms-live-check', channelId, request.signal);
  const channel = hasFault(engine.settings, 'cms-no-verdict') ? null : await platform.channelById(channelId);
  const owner = channel ? await platform.networks.ownerOf(channelId) : null;
  return { channel, owner };
}

/** The live site: the channel's page and newest videos, judged by live-network-judgement.ts. */
async function readPublicPages(pages: PublicPageReads, checked: PlatformChannel): Promise<Finding> {
  const read = await pages.channelPages(checked.channel_id, { videos: NETWORK_PAGES_READ, licensing: true });
  if (!read) {
    return { channel: null, owner: null, signals: [], note: 'No verdict: the site no longer shows the channel.', hint: 'Check the channel id; a terminated channel has no pages to check.' };
  }
  const judgement = judgeNetworkPages(read);
  if (!judgement.owner) return { channel: null, owner: null, signals: judgement.signals, note: judgement.note, hint: judgement.hint };
  return { channel: checked, owner: judgement.owner, signals: judgement.signals };
}
