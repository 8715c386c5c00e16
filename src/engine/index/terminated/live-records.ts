/**
 * How the live index records terminated channels: the refresh sweep, when a channel it watches
 * turns out terminated or deleted, hands over the last figures it had (gains from the snapshots
 * before the termination, null where they do not cover the window), and `engine import terminated`
 * brings records from elsewhere. Recording a channel again updates it (live-store.ts says how).
 */
import type Database from 'better-sqlite3';
import * as z from 'zod';
import { isChannelId, isVideoId } from '../../../core/channel-input.js';
import { formatIssues } from '../../../core/schemas/format-issues.js';
import { dayNumber } from '../../dates.js';
import { dayOfMs } from './live-keys.js';
import type { LiveTerminatedRepository } from './live-repository.js';
import { LiveTerminatedStore, TOP_VIDEOS, type StoredVideo, type TerminatedEntry } from './live-store.js';

export interface LiveTerminatedRecord {
  channel_id: string;
  channel_title: string;
  /** ISO 8601: a date (`2026-11-20`, midnight UTC) or a time (`2026-11-20T08:15:00Z`). */
  terminated_at: string;
  subscribers: number | null;
  total_views: number | null;
  video_count: number | null;
  views_24h: number | null;
  views_48h: number | null;
  subs_24h: number | null;
  subs_48h: number | null;
  language_code?: string | null;
  content_type?: 'longform' | 'shorts' | 'mixed' | null;
  /** ISO 8601 date. */
  first_upload_date?: string | null;
  /** Any number; the 3 most viewed are kept. */
  top_videos?: { video_id: string; title: string; views: number; kind: 'long' | 'short' }[];
  /** Ours, beyond the sweep's fields (an import gives them): the channel's picture, and what the checks knew. */
  thumbnail_url?: string | null;
  monetized?: boolean | null;
  low_quality?: boolean | null;
  avg_views_per_video?: number | null;
}

/** The platform opened in 2005: no channel was terminated, or uploaded, before. */
export const PLATFORM_START = '2005-02-14';
const PLATFORM_START_DAY = dayNumber(PLATFORM_START);

// The checks both paths share (the sweep's records here, the import's lines in features/terminated/import: the exported ones).
const LANGUAGE_CODE = /^[a-z]{2,3}$/;
const TITLE_MAX = 200;

export const channelIdField = z.string().refine(isChannelId, { error: 'must be a 24-character channel id starting with UC' });
export const titleField = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(TITLE_MAX, { error: `must be at most ${TITLE_MAX} characters` });
export const countField = z.number({ error: 'must be a whole number or null' }).int({ error: 'must be a whole number' }).min(0, { error: 'must not be negative' }).nullable();
export const gainField = z.number({ error: 'must be a whole number or null' }).int({ error: 'must be a whole number' }).nullable();
const languageField = z
  .string()
  .trim()
  .toLowerCase()
  .regex(LANGUAGE_CODE, { error: 'must be a language code such as en, es or fil' })
  .nullable();
export const thumbnailField = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000).nullable();

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Milliseconds of an ISO 8601 date (midnight UTC) or date-time with its offset; null when it is neither. */
function isoMs(value: string): number | null {
  if (ISO_DATE.test(value)) {
    try {
      return dayNumber(value) * 86_400_000;
    } catch {
      return null;
    }
  }
  if (!ISO_TIME.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** An ISO 8601 date or time, not before the platform opened, as milliseconds; `example` shows the form in the message. */
function isoField(example: string) {
  return z.string().transform((value, context) => {
    const ms = isoMs(value.trim());
    const problem =
      ms === null ? `must be an ISO 8601 ${example}, not "${value.slice(0, 40)}"` : dayOfMs(ms) < PLATFORM_START_DAY ? `is before ${PLATFORM_START}, when the platform opened` : null;
    if (problem === null) return ms!;
    context.addIssue({ code: 'custom', message: problem });
    return z.NEVER;
  });
}

/** A termination time, as milliseconds. */
export const terminatedAtField = isoField('date (2026-11-20) or time (2026-11-20T08:15:00Z)');

/** A first upload, as a day number (a time is cut to its UTC day). */
export const firstUploadField = isoField('date (2019-03-02)').transform(dayOfMs).nullable();

export const videoFields = {
  video_id: z.string().refine(isVideoId, { error: 'must be an 11-character video id' }),
  title: titleField,
};

const recordSchema = z.strictObject({
  channel_id: channelIdField,
  channel_title: titleField,
  terminated_at: terminatedAtField,
  subscribers: countField,
  total_views: countField,
  video_count: countField,
  views_24h: gainField,
  views_48h: gainField,
  subs_24h: gainField,
  subs_48h: gainField,
  language_code: languageField.optional(),
  content_type: z.enum(['longform', 'shorts', 'mixed']).nullable().optional(),
  first_upload_date: firstUploadField.optional(),
  top_videos: z
    .array(z.strictObject({ ...videoFields, views: countField.unwrap(), kind: z.enum(['long', 'short']) }))
    .optional(),
  thumbnail_url: thumbnailField.optional(),
  monetized: z.boolean().nullable().optional(),
  low_quality: z.boolean().nullable().optional(),
  avg_views_per_video: countField.optional(),
});

/** The most viewed first, at most TOP_VIDEOS (ties keep the given order). */
export function topVideos(videos: readonly StoredVideo[]): StoredVideo[] {
  return [...videos].sort((a, b) => b.views - a.views).slice(0, TOP_VIDEOS);
}

/** Refuses a first upload after the termination (the one check across two fields). */
export function checkDates(entry: Pick<TerminatedEntry, 'first_upload_day' | 'terminated_ms'>): string | null {
  if (entry.first_upload_day !== null && entry.first_upload_day > dayOfMs(entry.terminated_ms)) return 'first_upload_date: is after the termination date';
  return null;
}

function entryOf(record: z.output<typeof recordSchema>): TerminatedEntry {
  return {
    channel_id: record.channel_id,
    title: record.channel_title,
    terminated_ms: record.terminated_at,
    language_code: record.language_code ?? null,
    content_type: record.content_type ?? null,
    low_quality: record.low_quality ?? null,
    monetized: record.monetized ?? null,
    first_upload_day: record.first_upload_date ?? null,
    subscribers: record.subscribers,
    total_views: record.total_views,
    video_count: record.video_count,
    avg_views: record.avg_views_per_video ?? null,
    views_24h: record.views_24h,
    subs_24h: record.subs_24h,
    views_48h: record.views_48h,
    subs_48h: record.subs_48h,
    thumbnail_url: record.thumbnail_url ?? null,
    top_videos: topVideos(record.top_videos ?? []),
  };
}

/**
 * Records terminated channels in the live store of the data dir's database, in one transaction:
 * every record is checked first, and a bad one (a RangeError naming it and what is wrong) records
 * nothing. A channel recorded before is updated, not duplicated. `now` stamps when they were recorded.
 */
export function recordTerminatedChannels(
  db: Database.Database,
  records: LiveTerminatedRecord[],
  options: { now?: () => number } = {},
): { recorded: number } {
  const entries = checkedEntries(records);
  const store = new LiveTerminatedStore(db, options.now ?? Date.now);
  db.transaction(() => store.write(entries))();
  return { recorded: entries.length };
}

/** The same, into the engine's live terminated store (the data dir's SQLite, or the fleet's PostgreSQL). */
export async function recordTerminatedChannelsIn(store: Pick<LiveTerminatedRepository, 'write'>, records: LiveTerminatedRecord[]): Promise<{ recorded: number }> {
  const entries = checkedEntries(records);
  await store.write(entries);
  return { recorded: entries.length };
}

/** Every record checked, as entries: a bad one throws a RangeError naming it and what is wrong. */
function checkedEntries(records: LiveTerminatedRecord[]): TerminatedEntry[] {
  return records.map((record, index) => {
    const parsed = recordSchema.safeParse(record);
    const entry = parsed.success ? entryOf(parsed.data) : null;
    const problem = entry ? checkDates(entry) : formatIssues(parsed.error!.issues, record);
    if (!entry || problem !== null) {
      const id = typeof record?.channel_id === 'string' ? ` (${record.channel_id})` : '';
      throw new RangeError(`Terminated channel record ${index}${id}: ${problem}.`);
    }
    return entry;
  });
}
