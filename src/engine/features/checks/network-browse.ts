/**
 * `GET /api/cms-networks`: networks as the service knows them — only channels whose stored verdict
 * says "managed by this owner" count, grouped by oid. List mode filters by name (`q`, ASCII
 * letters case-insensitive), `min_channels`, sorts by members or combined subscribers, and counts
 * as a lookup against Starter's daily cap (429 upgrade_required). Detail mode (`oid`) lists
 * members, a roster: like `network` on check results it needs Professional or Ultimate, so
 * Starter gets 403 upgrade_required.
 */
import { forbidden, notFound } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import { planDisplayName } from '../../limits/plans.js';
import { checkIndex } from './check-index.js';
import { checksSql } from './check-store.js';
import { takeLookup } from './cms-caps.js';

/** Members listed in detail mode, biggest first. */
export const NETWORK_DETAIL_MEMBERS = 100;

export async function browseNetworks(request: RequestContext, input: ParsedInput<'cms.networks'>): Promise<RouteOutput<'cms.networks'>> {
  const store = await checkIndex(request.engine);
  if (input.oid !== undefined) {
    if (!request.limits.cmsNetworkDetails) {
      throw forbidden(
        `Network details (the members of a network) need the Professional or Ultimate plan; this key is on ${planDisplayName[request.user.plan]}.`,
        'upgrade_required',
        'Upgrade in your subscription settings; listing networks (without oid) works on every plan.',
      );
    }
    const owner = await checksSql.owner(store, input.oid);
    const stats = await checksSql.memberStats(store, input.oid);
    if (!owner || stats.member_count === 0) {
      throw notFound(`No managed network with oid ${input.oid} is known: no channel is verified as managed by it. List networks with GET /api/cms-networks (\`tubekit cms networks\`).`);
    }
    return { success: true, network: { ...owner, ...stats, members: await checksSql.members(store, input.oid, NETWORK_DETAIL_MEMBERS) } };
  }
  await takeLookup(request);
  const query = {
    pattern: input.q ? `%${input.q.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null,
    min_channels: input.min_channels,
    limit: input.limit,
    sort: input.sort === 'subscribers' ? ('subscribers' as const) : ('channels' as const),
  };
  const networks = await checksSql.networks(store, query);
  return { success: true, count: networks.length, networks };
}
