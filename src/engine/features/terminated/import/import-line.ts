/**
 * One line of `engine import terminated`: a JSON object with the fields of the spec's terminated
 * channel (as `GET /api/terminated-channels` answers them, so a saved answer's channels load as
 * they are). `channel_id`, `channel_title` and `terminated_date` are required; every figure may be
 * left out or null (unknown). `terminated_days_ago` and `similarity_score` are accepted and
 * ignored: the first follows from `terminated_date`, the second belongs to a search. Any other
 * field is refused, so a misspelt one is not dropped silently.
 */
import * as z from 'zod';
import { formatIssues } from '../../../../core/schemas/format-issues.js';
import {
  channelIdField,
  checkDates,
  countField,
  firstUploadField,
  gainField,
  terminatedAtField,
  thumbnailField,
  titleField,
  topVideos,
  videoFields,
} from '../../../index/terminated/live-records.js';
import type { TerminatedEntry } from '../../../index/terminated/live-store.js';
import { languageCodes } from '../languages.js';

/** Videos a line may list; the 3 most viewed are kept. */
export const RECENT_VIDEOS_MAX = 50;

/** A language code (`en`) or English name (`Spanish`), as the search's `languages` filter takes them. */
const languageField = z
  .string()
  .transform((value, context) => {
    try {
      return languageCodes([value])[0]!;
    } catch {
      context.addIssue({ code: 'custom', message: `"${value.slice(0, 40)}" is not a language; give a code such as en or a name such as English` });
      return z.NEVER;
    }
  })
  .nullable();

const lineSchema = z.strictObject(
  {
    channel_id: channelIdField,
    channel_title: titleField,
    terminated_date: terminatedAtField,
    subscriber_count: countField.optional(),
    view_count: countField.optional(),
    avg_views_per_video: countField.optional(),
    total_videos: countField.optional(),
    primary_language: languageField.optional(),
    monetized: z.boolean({ error: 'must be true, false or null' }).nullable().optional(),
    is_low_quality: z.boolean({ error: 'must be true, false or null' }).nullable().optional(),
    thumbnail_url: thumbnailField.optional(),
    first_upload_date: firstUploadField.optional(),
    terminated_days_ago: z.number().int().nullable().optional(),
    view_increase_24h: gainField.optional(),
    sub_increase_24h: gainField.optional(),
    view_increase_48h: gainField.optional(),
    sub_increase_48h: gainField.optional(),
    similarity_score: z.number().nullable().optional(),
    recent_videos: z
      .array(
        z.strictObject({
          ...videoFields,
          view_count: countField.unwrap(),
          // The picture and the link follow from the id; a link to /shorts/ marks a Short.
          thumbnail_url: z.string().nullable().optional(),
          url: z.string().nullable().optional(),
        }),
      )
      .max(RECENT_VIDEOS_MAX, { error: `must list at most ${RECENT_VIDEOS_MAX} videos` })
      .nullable()
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `not a field of a terminated channel: ${issue.keys.join(', ')}` : undefined) },
);

export type LineCheck = { entry: TerminatedEntry } | { error: string };

/**
 * A line read and checked: the channel as the store keeps it, or what is wrong with it. `nowMs`
 * is the engine's time: a termination after it is refused (clocks may differ by a day).
 */
export function checkLine(text: string, nowMs: number): LineCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `not JSON (${(error as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'not a JSON object (one channel a line)' };
  const parsed = lineSchema.safeParse(value);
  if (!parsed.success) return { error: formatIssues(parsed.error.issues, value) };
  const line = parsed.data;
  const entry: TerminatedEntry = {
    channel_id: line.channel_id,
    title: line.channel_title,
    terminated_ms: line.terminated_date,
    language_code: line.primary_language ?? null,
    content_type: null,
    low_quality: line.is_low_quality ?? null,
    monetized: line.monetized ?? null,
    first_upload_day: line.first_upload_date ?? null,
    subscribers: line.subscriber_count ?? null,
    total_views: line.view_count ?? null,
    video_count: line.total_videos ?? null,
    avg_views: line.avg_views_per_video ?? null,
    views_24h: line.view_increase_24h ?? null,
    subs_24h: line.sub_increase_24h ?? null,
    views_48h: line.view_increase_48h ?? null,
    subs_48h: line.sub_increase_48h ?? null,
    thumbnail_url: line.thumbnail_url ?? null,
    top_videos: topVideos(
      (line.recent_videos ?? []).map((video) => ({
        video_id: video.video_id,
        title: video.title,
        views: video.view_count,
        kind: video.url && /\/shorts\//.test(video.url) ? 'short' : 'long',
      })),
    ),
  };
  if (entry.terminated_ms > nowMs + 86_400_000) return { error: `terminated_date: is in the future (after ${new Date(nowMs).toISOString().slice(0, 10)})` };
  const dates = checkDates(entry);
  return dates ? { error: dates } : { entry };
}
