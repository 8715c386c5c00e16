/**
 * Alert filters: checked against the platform's vocabulary when saved (a language or category
 * the platform does not have, or a minimum above its maximum, is a 400 naming it), stored in a
 * canonical form, and matched against a triggering channel at each evaluation.
 */
import { badRequest } from '../../../core/errors.js';
import type { AlertFilters } from '../../../core/schemas/alerts.js';
import type { IndexedChannel } from '../../index/channels.js';
import type { PlatformProvider } from '../../platform/platform.js';

const RANGES = ['subs', 'views', 'avg_views', 'age', 'uploads'] as const;
const DAY_MS = 86_400_000;

const invalid = (field: string, message: string, hint?: string) => badRequest(`Invalid request: filters.${field}: ${message}.`, hint);

/** Canonical filters: language and category names as the platform spells them, keywords trimmed. */
export function normalizeFilters(platform: PlatformProvider, filters: AlertFilters): AlertFilters {
  for (const range of RANGES) {
    const min = filters[`min_${range}`];
    const max = filters[`max_${range}`];
    if (min !== undefined && max !== undefined && min > max) throw invalid(`min_${range}`, `${min} is above max_${range} (${max})`);
  }
  const out: AlertFilters = { ...filters };
  if (filters.languages) {
    const known = platform.languages();
    out.languages = unique(
      filters.languages.map((wanted) => {
        const match = known.find((language) => language.name.toLowerCase() === wanted.toLowerCase() || language.code === wanted.toLowerCase());
        if (!match) throw invalid('languages', `"${wanted}" is not a language of the platform`, `Use names or codes: ${known.slice(0, 6).map((l) => `${l.name} (${l.code})`).join(', ')}, …`);
        return match.name;
      }),
    );
  }
  if (filters.categories) {
    const known = platform.categories();
    out.categories = unique(
      filters.categories.map((wanted) => {
        const match = known.find((category) => category.toLowerCase() === wanted.toLowerCase());
        if (!match) throw invalid('categories', `"${wanted}" is not a category of the platform`, `Categories: ${known.join(', ')}.`);
        return match;
      }),
    );
  }
  if (filters.keywords) out.keywords = unique(filters.keywords.map((keyword) => keyword.trim()));
  return out;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** A figure the index does not know passes no bound on it (as an unknown language passes no language filter). */
function within(value: number | null, min: number | undefined, max: number | undefined): boolean {
  if (min === undefined && max === undefined) return true;
  return value !== null && (min === undefined || value >= min) && (max === undefined || value <= max);
}

/**
 * Whether the channel passes the filters at world time `nowMs`. `texts` are extra texts the
 * keywords may match (the outlier video's title), besides the channel's title and description.
 */
export function matchesFilters(channel: IndexedChannel, filters: AlertFilters, nowMs: number, texts: readonly string[] = []): boolean {
  const ageDays = Math.floor((nowMs - Date.parse(`${channel.created_at}T00:00:00Z`)) / DAY_MS);
  const average = channel.total_views === null || channel.video_count === null ? null : channel.total_views / Math.max(1, channel.video_count);
  if (!within(channel.subscribers, filters.min_subs, filters.max_subs)) return false;
  if (!within(channel.total_views, filters.min_views, filters.max_views)) return false;
  if (!within(average, filters.min_avg_views, filters.max_avg_views)) return false;
  if (!within(ageDays, filters.min_age, filters.max_age)) return false;
  if (!within(channel.video_count, filters.min_uploads, filters.max_uploads)) return false;
  // A channel whose language or category the index does not know passes no filter on it.
  if (filters.languages && (channel.language === null || !filters.languages.includes(channel.language))) return false;
  if (filters.categories && (channel.category === null || !filters.categories.includes(channel.category))) return false;
  if (filters.keywords) {
    const haystack = [channel.title, channel.description, ...texts].join('\n').toLowerCase();
    if (!filters.keywords.some((keyword) => haystack.includes(keyword.toLowerCase()))) return false;
  }
  return true;
}
