/**
 * `GET /api/terminated-channels`: the request's keywords, filters, sort and page become one
 * search of the index's terminated channels (index/terminated/reader.ts); the answer carries the
 * total so a caller knows how many pages there are.
 */
import { badRequest, ServiceError } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import { TERMINATED_MAX_PAGE } from '../../../core/schemas/research.js';
import type { RequestContext } from '../../context.js';
import type { RangeField, SortDirection, SortField, TerminatedChannel, TerminatedQuery } from '../../index/terminated/reader.js';
import { parseKeyword, type SearchKeyword } from '../../index/terminated/search-text.js';
import { languageCodes } from './languages.js';

type Input = ParsedInput<'terminated.search'>;
type Output = RouteOutput<'terminated.search'>;

/** A channel matches when any keyword does; more than this many is not a search any more. */
export const MAX_KEYWORDS = 10;

/** Each bounded field and the query parameters that bound it. */
const RANGES: ReadonlyArray<[RangeField, keyof Input, keyof Input]> = [
  ['subs', 'min_subs', 'max_subs'],
  ['views', 'min_views', 'max_views'],
  ['avg_views', 'min_avg_views', 'max_avg_views'],
  ['age', 'min_age', 'max_age'],
  ['videos', 'min_uploads', 'max_uploads'],
  ['views_24h', 'min_views_24h', 'max_views_24h'],
  ['views_48h', 'min_views_48h', 'max_views_48h'],
];

export async function searchTerminated(request: RequestContext, input: Input): Promise<Output> {
  const [sort, direction] = splitSort(input.sort);
  const query: TerminatedQuery = {
    keywords: keywordsOf(input.q),
    languages: input.languages ? languageCodes(input.languages) : undefined,
    monetized: input.monetized === undefined ? undefined : input.monetized === 'yes',
    ranges: rangesOf(input),
    sort,
    direction,
    offset: (input.page - 1) * input.per_page,
    limit: input.per_page,
  };
  const result = await (await request.engine.terminated()).search(query);
  return {
    success: true,
    page: input.page,
    per_page: input.per_page,
    total: result.total,
    total_pages: Math.min(TERMINATED_MAX_PAGE, Math.ceil(result.total / input.per_page)),
    channels: result.channels.map(toResult),
  };
}

/** `GET /api/terminated-channels/:channel_id`: the stored record of one terminated channel, or 404. */
export async function showTerminated(request: RequestContext, channelId: string): Promise<RouteOutput<'terminated.show'>> {
  const channel = await (await request.engine.terminated()).byId(channelId);
  if (!channel) {
    throw new ServiceError({
      status: 404,
      code: 'not_found',
      message: `No terminated channel has the id ${channelId}.`,
      hint: 'Search terminated channels by keyword (GET /api/terminated-channels?q=…, `tubekit terminated <keywords>`) to find their ids.',
    });
  }
  return { success: true, channel: { ...toResult(channel), similarity_score: null } };
}

function keywordsOf(q: string): SearchKeyword[] {
  const keywords = q.split(',').map(parseKeyword).filter((keyword): keyword is SearchKeyword => keyword !== null);
  if (keywords.length === 0) {
    throw badRequest('Invalid request: q: give at least one keyword with letters or digits (comma-separated for several).');
  }
  if (keywords.length > MAX_KEYWORDS) {
    throw badRequest(`Invalid request: q: has ${keywords.length} keywords; give at most ${MAX_KEYWORDS}.`);
  }
  return keywords;
}

function rangesOf(input: Input): TerminatedQuery['ranges'] {
  const ranges: NonNullable<TerminatedQuery['ranges']> = {};
  for (const [field, minName, maxName] of RANGES) {
    const min = input[minName] as number | undefined;
    const max = input[maxName] as number | undefined;
    if (min !== undefined && max !== undefined && min > max) {
      throw badRequest(`Invalid request: ${String(minName)}: is ${min}, more than ${String(maxName)} (${max}); no channel can match.`);
    }
    if (min !== undefined || max !== undefined) ranges[field] = { min, max };
  }
  return ranges;
}

function splitSort(sort: string): [SortField, SortDirection] {
  const at = sort.lastIndexOf('_');
  return [sort.slice(0, at) as SortField, sort.slice(at + 1) as SortDirection];
}

function toResult(channel: TerminatedChannel): Output['channels'][number] {
  return {
    channel_id: channel.channel_id,
    channel_title: channel.title,
    subscriber_count: channel.subscribers,
    view_count: channel.total_views,
    avg_views_per_video: channel.avg_views_per_video,
    total_videos: channel.video_count,
    primary_language: channel.language_code,
    monetized: channel.monetized,
    is_low_quality: channel.low_quality,
    thumbnail_url: channel.thumbnail_url,
    first_upload_date: channel.first_upload_date,
    terminated_date: channel.terminated_date,
    terminated_days_ago: channel.terminated_days_ago,
    view_increase_24h: channel.views_24h,
    sub_increase_24h: channel.subs_24h,
    view_increase_48h: channel.views_48h,
    sub_increase_48h: channel.subs_48h,
    similarity_score: channel.similarity,
    recent_videos: channel.top_videos.map((video) => ({
      video_id: video.video_id,
      title: video.title,
      view_count: video.views,
      thumbnail_url: video.thumbnail_url,
      url: video.url,
    })),
  };
}
