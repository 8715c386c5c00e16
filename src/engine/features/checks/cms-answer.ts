/** The body of a managed-network check: the verdict, its owner, and (not on Starter) the network. */
import type { RouteOutput } from '../../../core/routes.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import type { PageSignal } from '../../platform/page-signals.js';
import type { Executor } from '../../store/store.js';
import { checksSql, type CmsVerdictRow, type MemberRow, type OwnerRow } from './check-store.js';
import type { LiveOutcome } from './live-claim.js';

type CmsBody = RouteOutput<'cms.check'>;

/** Biggest other members shown without `full_network=1`. */
export const NETWORK_SAMPLE_SIZE = 5;

const UNCHECKED_HINT =
  'Retry in a minute: an unchecked channel is checked live on every request (refresh=1 forces a live check even when a verdict is stored).';

export class CmsAnswer {
  constructor(
    private readonly request: RequestContext,
    private readonly store: Executor,
    private readonly channelId: string,
    private readonly fullNetwork: boolean,
  ) {}

  /** A stored verdict, answered without a live check. */
  stored(verdict: CmsVerdictRow): Promise<CmsBody> {
    const when = ago(verdict.checked_at, this.request.engine.clock.now());
    const source =
      verdict.source === 'precheck'
        ? `From the pre-checked index (checked ${when}); refresh=1 runs a live check.`
        : `From a live check ${when}; refresh=1 runs a new one.`;
    return this.body(verdict, false, source);
  }

  /** After a live check finished: `ranHere` when this request ran it, false when it waited on another's. */
  async afterLiveCheck(outcome: LiveOutcome, ranHere: boolean): Promise<CmsBody> {
    const verdict = await checksSql.verdict(this.store, this.channelId);
    if (outcome.verdict && verdict) {
      return this.body(verdict, ranHere, ranHere ? 'Live check just now.' : 'From the live check another request was already running for this channel.');
    }
    const who = ranHere ? 'The live check' : 'The live check this request waited for';
    if (verdict) {
      const when = ago(verdict.checked_at, this.request.engine.clock.now());
      return this.body(verdict, ranHere, `${who} got no verdict; this is the stored one (checked ${when}). Retry refresh=1 later for a fresh one.`);
    }
    return {
      success: true,
      channel_id: this.channelId,
      status: 'unchecked',
      checked_at: null,
      checked_live: ranHere,
      owner: null,
      note: outcome.note ?? `${who} got no verdict this time.`,
      hint: outcome.hint ?? UNCHECKED_HINT,
      ...(outcome.signals ? { signals: outcome.signals } : {}),
    };
  }

  private async body(verdict: CmsVerdictRow, live: boolean, source: string): Promise<CmsBody> {
    const owner = verdict.status === 'managed' ? await this.owner(verdict.oid!) : null;
    const details = this.request.limits.cmsNetworkDetails;
    const who = owner
      ? `Managed by ${owner.name ?? 'a network never seen by name'} (oid ${owner.oid})${details ? '' : '; network details need Professional or Ultimate'}.`
      : 'Not managed by any network.';
    const body: CmsBody = {
      success: true,
      channel_id: this.channelId,
      status: verdict.status,
      checked_at: isoTime(verdict.checked_at),
      checked_live: live,
      owner,
      note: `${who} ${source}`,
    };
    if (owner && details) body.network = await this.network(owner.oid);
    const signals = await this.signals();
    if (signals) body.signals = signals;
    return body;
  }

  /** The public signals the stored verdict rests on (live checks on the live platform). */
  private async signals(): Promise<PageSignal[] | undefined> {
    const row = await checksSql.verdictSignals(this.store, this.channelId);
    return row ? (JSON.parse(row.signals) as PageSignal[]) : undefined;
  }

  private async owner(oid: string): Promise<OwnerRow> {
    return (await checksSql.owner(this.store, oid)) ?? { oid, name: null, type: null, industry: null };
  }

  /** Grouped by oid: member_count counts the channels verified as managed by this owner. */
  private async network(oid: string): Promise<NonNullable<CmsBody['network']>> {
    const { member_count } = await checksSql.memberStats(this.store, oid);
    if (this.fullNetwork) return { member_count, members: (await checksSql.members(this.store, oid)).map(networkChannel) };
    return { member_count, other_members_sample: (await checksSql.otherMembers(this.store, oid, this.channelId, NETWORK_SAMPLE_SIZE)).map(networkChannel) };
  }
}

const networkChannel = (row: MemberRow) => ({ channel_id: row.channel_id, name: row.name, subscribers: row.subscribers, avg_views: row.avg_views });

/** "3 days ago", "5 hours ago", "just now". */
function ago(then: number, now: number): string {
  const minutes = Math.floor((now - then) / 60_000);
  if (minutes < 1) return 'just now';
  const [value, unit] = minutes < 60 ? [minutes, 'minute'] : minutes < 48 * 60 ? [Math.floor(minutes / 60), 'hour'] : [Math.floor(minutes / 1440), 'day'];
  return `${value} ${unit}${value === 1 ? '' : 's'} ago`;
}
