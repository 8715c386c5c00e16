/**
 * How `engine copy-store` reads a data dir's live terminated store (SQLite: rows, facts and an FTS5
 * index, live-schema.ts) as rows of the fleet's `live_terminated`: rows and facts joined by key,
 * and the search document made from the name and the top videos' titles, as a write makes it.
 */
import { LIVE_LAYOUT, STATS_TABLE } from '../live-schema.js';
import { documentOf } from './ts-text.js';

const { rows, facts } = LIVE_LAYOUT;

export const LIVE_TERMINATED_COPY = {
  select: `SELECT t.idx, t.channel_id, t.title, t.language_code, t.content_type, t.low_quality, f.monetized, t.first_upload_day, t.terminated_day,
      t.terminated_ms, f.subs, f.views, f.avg_views, f.videos, f.age, f.views_24h, f.subs_24h, f.views_48h, t.subs_48h, f.title_tokens,
      t.top_videos, t.thumbnail_url, t.recorded_ms, t.updated_ms
    FROM ${rows} t JOIN ${facts} f ON f.idx = t.idx`,
  requires: STATS_TABLE,
  derived: ['document'],
  derive: (row: Record<string, unknown>) => {
    const videos = JSON.parse(String(row.top_videos)) as Array<[title: string]>;
    return { document: documentOf(String(row.title), videos.map(([title]) => title)) };
  },
};
