/** Analysis tools: monetization, managed networks (CMS) and terminated-channel search. */
import * as z from 'zod';
import { channelId, flag, integer, oneOf, success, text, commaList } from './params.js';

export const channelIdInput = z.object({ channel_id: channelId });

export const externalMonetizationInput = z.object({
  channel_id: channelId,
  skip_live: flag().default(false),
  cached_ok_secs: integer({ min: 0 }).optional(),
});
export const EXTERNAL_METHODS = ['merch', 'course', 'membership', 'digital_products', 'coaching', 'tickets', 'affiliate', 'sponsorships'] as const;
/**
 * The spec names the content (what it sells, methods with evidence and source link, products,
 * store URLs, funnel metrics, `classified`); the field names are ours. Unclassified: nulls and [].
 */
export const externalMonetizationOutput = z.object({
  success,
  channel_id: z.string(),
  classified: z.boolean(),
  /** True when this request ran the classifier. */
  checked_live: z.boolean(),
  classifier_version: z.string().nullable(),
  classified_at: z.string().nullable(),
  /** What the channel sells, in plain words. */
  summary: z.string().nullable(),
  methods: z.array(z.object({ method: z.enum(EXTERNAL_METHODS), evidence: z.string(), source_url: z.string() })),
  products: z.array(
    z.object({
      name: z.string(),
      method: z.enum(EXTERNAL_METHODS),
      price: z.number(),
      currency: z.string(),
      billing: z.enum(['one_time', 'monthly']),
      url: z.string(),
    }),
  ),
  store_urls: z.array(z.string()),
  funnel: z
    .object({
      entry_points: z.array(z.string()),
      description_link_share: z.number(),
      link_hub_url: z.string().nullable(),
      email_capture: z.boolean(),
      est_monthly_link_clicks: z.number().int(),
      est_click_through_rate: z.number(),
      est_conversion_rate: z.number(),
    })
    .nullable(),
});

/**
 * Ours: what a live check's verdict is based on — each thing a read of public pages saw (`id` names
 * its kind), with its evidence in words and the page. Present on the live platform's answers only.
 */
export const pageSignal = z.object({ id: z.string(), evidence: z.string(), url: z.string() });

export const adMonetizationOutput = z.object({
  success,
  channel_id: z.string(),
  monetized: z.boolean().nullable(),
  reason: z.string(),
  hint: z.string().optional(),
  checked_at: z.string(),
  /** The stored state before this check; null for a channel never checked before. */
  previous: z
    .object({
      monetized: z.boolean().nullable(),
      last_seen_monetized_at: z.string().nullable(),
      last_seen_demonetized_at: z.string().nullable(),
      last_checked_at: z.string(),
    })
    .nullable(),
  /** Live platform: the pages read and what each showed. */
  signals: z.array(pageSignal).optional(),
});

export const CMS_STATES = ['managed', 'not_managed', 'unchecked'] as const;
const networkChannel = z.object({
  channel_id: z.string(),
  name: z.string(),
  /** null: the live site hid the count. */
  subscribers: z.number().int().nullable(),
  avg_views: z.number().int().nullable(),
});
const owner = z.object({
  oid: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  industry: z.string().nullable(),
});

export const cmsCheckInput = z.object({
  channel_id: channelId,
  refresh: flag().default(false),
  full_network: flag().default(false),
});
export const cmsCheckOutput = z.object({
  success,
  channel_id: z.string(),
  status: oneOf(CMS_STATES),
  /** Null while `unchecked`. */
  checked_at: z.string().nullable(),
  checked_live: z.boolean(),
  /** The managing network; null unless `managed`. */
  owner: owner.nullable(),
  note: z.string().optional(),
  hint: z.string().optional(),
  network: z
    .object({
      member_count: z.number().int(),
      other_members_sample: z.array(networkChannel).optional(),
      members: z.array(networkChannel).optional(),
    })
    .optional(),
  /** Live platform: the public signals the verdict (or the lack of one) rests on. */
  signals: z.array(pageSignal).optional(),
});

export const networksInput = z.object({
  q: z.string().trim().max(200).optional(),
  oid: z.string().trim().min(1, { error: 'must not be empty' }).max(100).optional(),
  min_channels: integer({ min: 1 }).default(2),
  sort: oneOf(['channels', 'subscribers']).default('channels'),
  limit: integer({ min: 1, max: 100 }).default(25),
});
const networkEntry = z.object({
  oid: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  industry: z.string().nullable(),
  member_count: z.number().int(),
  total_subscribers: z.number().int(),
});
export const networkListOutput = z.object({ success, count: z.number().int(), networks: z.array(networkEntry) });
export const networkDetailOutput = z.object({
  success,
  network: networkEntry.extend({
    members: z.array(networkChannel.extend({ language: z.string().nullable(), category: z.string().nullable() })),
  }),
});
export const networksOutput = z.union([networkListOutput, networkDetailOutput]);

export const TERMINATED_SORT_FIELDS = ['subs', 'views', 'videos', 'age', 'views_24h', 'subs_24h', 'views_48h', 'date', 'similarity'] as const;
export const TERMINATED_SORTS = TERMINATED_SORT_FIELDS.flatMap((field) => [`${field}_asc`, `${field}_desc`]) as [
  string,
  ...string[],
];
export const TERMINATED_MAX_PAGE = 20;
export const TERMINATED_MAX_PER_PAGE = 50;
const bound = () => integer({ min: 0 }).optional();
export const terminatedInput = z.object({
  q: text({ max: 500 }),
  languages: commaList({ max: 20 }).optional(),
  sort: z
    .enum(TERMINATED_SORTS, { error: `must be {field}_asc or {field}_desc with field one of: ${TERMINATED_SORT_FIELDS.join(', ')}` })
    .default('date_desc'),
  page: integer({ min: 1, max: TERMINATED_MAX_PAGE }).default(1),
  per_page: integer({ min: 1, max: TERMINATED_MAX_PER_PAGE }).default(20),
  min_subs: bound(),
  max_subs: bound(),
  min_views: bound(),
  max_views: bound(),
  min_avg_views: bound(),
  max_avg_views: bound(),
  min_age: bound(),
  max_age: bound(),
  min_uploads: bound(),
  max_uploads: bound(),
  monetized: oneOf(['yes', 'no']).optional(),
  min_views_24h: bound(),
  max_views_24h: bound(),
  min_views_48h: bound(),
  max_views_48h: bound(),
});
/**
 * A terminated channel. On the sample platform every figure is known. On the live platform a
 * figure the engine never read (and no import gave) is null, never a guess: the spec's types,
 * widened to null for those fields.
 */
export const terminatedChannel = z.object({
  channel_id: z.string(),
  channel_title: z.string(),
  subscriber_count: z.number().int().nullable(),
  view_count: z.number().int().nullable(),
  avg_views_per_video: z.number().int().nullable(),
  total_videos: z.number().int().nullable(),
  primary_language: z.string().nullable(),
  monetized: z.boolean().nullable(),
  is_low_quality: z.boolean().nullable(),
  thumbnail_url: z.string().nullable(),
  first_upload_date: z.string().nullable(),
  terminated_date: z.string(),
  terminated_days_ago: z.number().int(),
  view_increase_24h: z.number().int().nullable(),
  sub_increase_24h: z.number().int().nullable(),
  view_increase_48h: z.number().int().nullable(),
  sub_increase_48h: z.number().int().nullable(),
  similarity_score: z.number().int().nullable(),
  recent_videos: z.array(
    z.object({
      video_id: z.string(),
      title: z.string(),
      view_count: z.number().int(),
      thumbnail_url: z.string(),
      url: z.string(),
    }),
  ),
});
export const terminatedOutput = z.object({
  success,
  page: z.number().int(),
  per_page: z.number().int(),
  /** Every channel matching the search, on all pages. */
  total: z.number().int(),
  /** Pages that can be requested: the matches' pages, at most 20. */
  total_pages: z.number().int(),
  channels: z.array(terminatedChannel),
});
/**
 * Ours, beyond the spec: one terminated channel's record by id (`similarity_score` is null: no
 * keyword was given). A channel that is not terminated is a 404.
 */
export const terminatedShowOutput = z.object({ success, channel: terminatedChannel });
