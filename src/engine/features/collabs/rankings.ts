/** `GET /api/collabs/fastest-growing`: checked channels that do collabs, ranked by growth from the 6-hour snapshot. */
import type Database from 'better-sqlite3';
import type { EngineContext, RequestContext } from '../../context.js';
import { preparedFor } from '../../store/prepared.js';
import { canonicalLanguage } from './shared.js';
import { currentGrowthRun, type GrowthRow, type GrowthRun } from './growth-snapshot.js';

/** `sort=pct` counts only channels of at least this many subscribers unless `min_subscribers` is set. */
export const PCT_MIN_SUBSCRIBERS = 1_000;
const DAY_MS = 86_400_000;

export interface RankingQuery {
  metric: 'subs' | 'views';
  period: 7 | 30;
  sort: 'gain' | 'pct';
  min_subscribers?: number;
  max_subscribers?: number;
  min_partners: number;
  active_days?: number;
  language?: string;
  page: number;
  per_page: number;
}

/** One prepared statement per query shape (a handful), built on first use. */
const shapes = preparedFor(() => new Map<string, { page: Database.Statement; count: Database.Statement }>());

function statementsFor(engine: EngineContext, where: string, order: string) {
  const cache = shapes(engine.db);
  const key = `${where}|${order}`;
  let found = cache.get(key);
  if (!found) {
    found = {
      page: engine.db.prepare(`SELECT *, ${order} AS ranked FROM collab_growth WHERE ${where} ORDER BY ranked DESC, channel_id LIMIT @limit OFFSET @offset`),
      count: engine.db.prepare(`SELECT COUNT(*) FROM collab_growth WHERE ${where}`).pluck(),
    };
    cache.set(key, found);
  }
  return found;
}

/**
 * Pages by growth run and query: a run's rows never change (the next 6-hour boundary of world time
 * is a new run), so neither do its pages. The newest PAGES_KEPT are kept; the oldest go first.
 */
const pages = preparedFor(() => new Map<string, RankingPage>());
const PAGES_KEPT = 256;

type RankingPage = ReturnType<typeof rankingPage>;

export async function fastestGrowing(request: RequestContext, query: RankingQuery): Promise<RankingPage> {
  const engine = request.engine;
  const [platform, index] = await Promise.all([engine.platform(), engine.index()]);
  // Judge the input before the snapshot: a refused request must not compute and store one.
  const language = query.language === undefined ? undefined : canonicalLanguage(platform, query.language, 'language');
  const run = await currentGrowthRun(engine, index, platform.nowMs());
  const kept = pages(engine.db);
  const key = JSON.stringify([index.edition, run.computed_at_ms, { ...query, language }]);
  let page = kept.get(key);
  if (!page) {
    page = rankingPage(engine, run, query, language);
    kept.set(key, page);
    if (kept.size > PAGES_KEPT) kept.delete(kept.keys().next().value!);
  }
  return page;
}

function rankingPage(engine: EngineContext, run: GrowthRun, query: RankingQuery, language: string | undefined) {
  const gain = `${query.metric}_${query.period}d`;
  const start = `${query.metric}_start_${query.period}d`;
  // A live channel whose snapshots do not cover the period has no growth to rank by (the sample world's always has).
  const conditions = ['partners >= @min_partners', `${gain} IS NOT NULL`];
  const params: Record<string, unknown> = { min_partners: query.min_partners, limit: query.per_page, offset: (query.page - 1) * query.per_page };
  const minSubscribers = query.min_subscribers ?? (query.sort === 'pct' ? PCT_MIN_SUBSCRIBERS : undefined);
  if (minSubscribers !== undefined) {
    conditions.push('subscribers >= @min_subscribers');
    params.min_subscribers = minSubscribers;
  }
  if (query.max_subscribers !== undefined) {
    conditions.push('subscribers <= @max_subscribers');
    params.max_subscribers = query.max_subscribers;
  }
  if (query.active_days !== undefined) {
    conditions.push('latest_collab_ms > @active_since');
    params.active_since = run.computed_at_ms - query.active_days * DAY_MS;
  }
  if (language !== undefined) {
    conditions.push('language = @language');
    params.language = language;
  }
  // A percentage needs a starting figure: channels that started from nothing are not ranked by it.
  if (query.sort === 'pct') conditions.push(`${start} > 0`);
  const order = query.sort === 'pct' ? `CAST(${gain} AS REAL) / ${start}` : gain;
  const statements = statementsFor(engine, conditions.join(' AND '), order);
  const rows = statements.page.all(params) as Array<GrowthRow & { ranked: number }>;
  const total = statements.count.get(params) as number;
  return {
    computed_at: new Date(run.computed_at_ms).toISOString().replace('.000Z', 'Z'),
    growth_through: run.growth_through,
    metric: query.metric,
    period: query.period,
    sort: query.sort,
    page: query.page,
    per_page: query.per_page,
    total,
    channels: rows.map((row, index) => {
      const startValue = row[start as keyof GrowthRow] as number | null;
      const growth = row[gain as keyof GrowthRow] as number;
      return {
        rank: (query.page - 1) * query.per_page + index + 1,
        channel_id: row.channel_id,
        handle: row.handle,
        title: row.title,
        language: row.language,
        subscribers: row.subscribers,
        growth,
        growth_pct: startValue !== null && startValue > 0 ? Math.round((growth / startValue) * 10_000) / 100 : null,
        partners: row.partners,
        collab_videos: row.collab_videos,
        latest_collab_at: row.latest_collab_ms === null ? null : new Date(row.latest_collab_ms).toISOString().replace('.000Z', 'Z'),
      };
    }),
  };
}
