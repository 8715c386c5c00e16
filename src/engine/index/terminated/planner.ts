/**
 * Which way to find a page (see query-sql.ts), from how many channels the keywords match. Costs
 * are microseconds measured at a million terminated channels; only their ratios matter.
 *
 *  - keyword first: join every match to its facts and keep the best (`joinPerMatch` each).
 *  - sort index, probing: walk the sort index and ask the full-text index about each channel
 *    (`probe` each); cheapest when nearly every channel matches and the page is early.
 *  - sort index, match set: fetch the ids of every match (`idPerMatch` each), then walk the sort
 *    index checking them in memory (`walkPerRow` each); cheapest for keywords in a few percent of
 *    the channels.
 *
 *  - similarity tiers (one keyword sorted by similarity): a channel's score depends only on
 *    whether its name holds the keyword and on the name's length, so the page is read from the
 *    full-text index tier by tier (names of one length at a time, then video titles), each tier
 *    in termination order, stopping when the page is full.
 *
 * Filters on the facts make the count join every match anyway, so then the keyword-first plan
 * counts while it sorts and the index plans have nothing left to save.
 */
export type SearchPlan = 'keyword-first' | 'sort-index-probe' | 'sort-index-match-set' | 'similarity-tiers';

export const PLAN_COSTS_US = { joinPerMatch: 0.6, probe: 18, idPerMatch: 0.2, walkPerRow: 0.15 };

export interface PlanInputs {
  /** Estimated matches of the keywords. */
  matches: number;
  /** Terminated channels in the world. */
  channels: number;
  /** offset + limit. */
  wanted: number;
}

/** Channels walked to meet `wanted` matches when matches are spread evenly over the order. */
export function walkLength({ matches, channels, wanted }: PlanInputs): number {
  return (wanted * channels) / Math.max(1, matches);
}

export function planCosts(inputs: PlanInputs): Record<Exclude<SearchPlan, 'similarity-tiers'>, number> {
  const walked = walkLength(inputs);
  return {
    'keyword-first': inputs.matches * PLAN_COSTS_US.joinPerMatch,
    'sort-index-probe': walked * PLAN_COSTS_US.probe,
    'sort-index-match-set': inputs.matches * PLAN_COSTS_US.idPerMatch + walked * PLAN_COSTS_US.walkPerRow,
  };
}

/** The cheapest plan for a sort with an index. */
export function cheapestPlan(inputs: PlanInputs): SearchPlan {
  const costs = planCosts(inputs);
  return (Object.keys(costs) as Array<keyof typeof costs>).reduce((best, plan) => (costs[plan] < costs[best] ? plan : best));
}
