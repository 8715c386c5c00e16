/**
 * `GET /api/channels/:channel_id/checks`: the verdicts the checks already stored for a channel —
 * ads, external monetization, managed network — read as they are: no check runs, no quota is spent,
 * and a check never run here is null rather than a verdict.
 */
import type { StoredChecks } from '../../../core/schemas/channel-videos.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import { checkIndex } from '../checks/check-index.js';
import { checksSql } from '../checks/check-store.js';

const isoOrNull = (ms: number | null) => (ms === null ? null : isoTime(ms));

export async function storedChecks(request: RequestContext, channelId: string): Promise<StoredChecks> {
  // The checks' store with this world's pre-checked verdicts in it (the hosted service starts with them).
  const store = await checkIndex(request.engine);
  const [ads, external, network] = await Promise.all([checksSql.adVerdict(store, channelId), checksSql.external(store, channelId), checksSql.verdict(store, channelId)]);
  const owner = network?.status === 'managed' && network.oid ? ((await checksSql.owner(store, network.oid)) ?? { oid: network.oid, name: null }) : null;
  return {
    success: true,
    channel_id: channelId,
    ads: ads
      ? {
          monetized: ads.monetized === null ? null : ads.monetized === 1,
          reason: ads.reason,
          checked_at: isoTime(ads.last_checked_at),
          last_seen_monetized_at: isoOrNull(ads.last_seen_monetized_at),
          last_seen_demonetized_at: isoOrNull(ads.last_seen_demonetized_at),
        }
      : null,
    external: external ? { classified_at: isoTime(external.classified_at), classifier_version: external.classifier_version, result: JSON.parse(external.result) as Record<string, unknown> } : null,
    network: network ? { status: network.status, source: network.source, checked_at: isoTime(network.checked_at), owner: owner && { oid: owner.oid, name: owner.name } } : null,
  };
}
