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
 */
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import { hasFault } from '../../faults.js';
import { durationFor, simulateWork, workDuration } from '../../simulated-work.js';
import { checkIndex } from './check-index.js';
import type { ChecksStore, CmsVerdictRow } from './check-store.js';
import { takeLiveCheck, takeLookup } from './cms-caps.js';
import { CmsAnswer } from './cms-answer.js';
import { averageViews, checkedChannel } from './known-channel.js';
import { awaitLiveCheck, claimLiveCheck, finishLiveCheck, isRunning, releaseLiveCheck } from './live-claim.js';

type Step = { kind: 'stored'; verdict: CmsVerdictRow } | { kind: 'run'; token: string } | { kind: 'join'; token: string };

export async function checkManagedNetwork(
  request: RequestContext,
  input: ParsedInput<'cms.check'>,
): Promise<RouteOutput<'cms.check'>> {
  const { engine } = request;
  const { channel_id: channelId } = await checkedChannel(engine, input.channel_id);
  const store = await checkIndex(engine);
  const answer = new CmsAnswer(request, store, channelId, input.full_network);
  let joined = false;
  for (;;) {
    const step = decide(request, store, channelId, input.refresh, joined);
    if (step.kind === 'stored') return answer.stored(step.verdict);
    if (step.kind === 'run') return answer.afterLiveCheck(await runLiveCheck(request, store, channelId, step.token), true);
    // Joined: one lookup is counted, however long the wait or whatever happens to the check.
    joined = true;
    const outcome = await awaitLiveCheck(store, engine.clock, channelId, step.token, request.signal);
    if (outcome) return answer.afterLiveCheck(outcome.verdict, false);
  }
}

function decide(request: RequestContext, store: ChecksStore, channelId: string, refresh: boolean, joined: boolean): Step {
  const { engine } = request;
  const plannedMs = durationFor(channelId, workDuration(engine.settings, 'cms-live-check'));
  const run = engine.db.transaction((): Step => {
    const now = engine.clock.now();
    const verdict = store.verdict.get(channelId);
    if (verdict && !refresh) {
      if (!joined) takeLookup(request);
      return { kind: 'stored', verdict };
    }
    const claim = store.claim.get(channelId);
    if (isRunning(claim, now)) {
      if (!joined) takeLookup(request);
      return { kind: 'join', token: claim.token };
    }
    takeLiveCheck(request);
    return { kind: 'run', token: claimLiveCheck(store, channelId, now, plannedMs) };
  });
  return run.immediate();
}

/** Runs the claimed live check and stores its verdict; returns whether it got one. */
async function runLiveCheck(request: RequestContext, store: ChecksStore, channelId: string, token: string): Promise<boolean> {
  const { engine } = request;
  try {
    await simulateWork(engine.settings, 'cms-live-check', channelId, request.signal);
  } catch (error) {
    // Abandoned (the caller went away): whoever waits on it decides again.
    releaseLiveCheck(store, channelId, token);
    throw error;
  }
  const platform = await engine.platform();
  const channel = hasFault(engine.settings, 'cms-no-verdict') ? null : await platform.channelById(channelId);
  const owner = channel ? await platform.networks.ownerOf(channelId) : null;
  const record = engine.db.transaction(() => {
    const now = engine.clock.now();
    if (channel) {
      if (owner) store.putOwner.run(owner);
      store.putVerdict.run({
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
    }
    finishLiveCheck(store, channelId, token, now, { verdict: channel !== null });
  });
  record.immediate();
  return channel !== null;
}
