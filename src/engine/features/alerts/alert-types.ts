/**
 * What makes a channel trigger each alert type, and with which figures. A cycle computes each
 * type's triggers once for the whole world (per content type) and every alert of that type keeps
 * the ones passing its filters. The README's "Alerts" section states these rules in words.
 *
 * Content types: a `longform` alert watches longform and mixed channels (and, for outliers, their
 * long videos); a `shorts` alert watches shorts and mixed channels (and their shorts).
 *
 * - outlier: a video of the alert's kind published within the last 7 days of world time has at
 *   least 1,000 views and at least 5× the channel's usual views — the median of its other videos
 *   of that kind among its 20 newest uploads (at least 3 of them). Key: the video, so the same
 *   channel triggers anew with another outlier video. A video whose views the site did not give
 *   never triggers, and counts not towards the usual views.
 * - new_channel: the channel was created within the last 7 days of world time. Key: the channel:
 *   a channel is new to an alert once.
 * - breakout: a channel at least 29 days old gained at least 1,000 views in the last 24 hours of
 *   world time, and at least 4× its average daily views over the 28 days before. Key: the world
 *   day; it triggers anew only 7 days after it last triggered the same alert.
 */
import type { AlertType } from '../../../core/schemas/alerts.js';
import type { IndexedChannel, ScannedChannel } from '../../index/channels.js';
import type { EngineIndex } from '../../index/engine-index.js';

const DAY_MS = 86_400_000;

export const ALERT_RULES = {
  outlier: { windowDays: 7, multiple: 5, minViews: 1_000, minOthers: 3, recentVideos: 20 },
  new_channel: { windowDays: 7 },
  breakout: { multiple: 4, minViews: 1_000, baselineDays: 28, quietDays: 7 },
} as const;

export type AlertContentType = 'longform' | 'shorts';

export interface Trigger {
  channel: IndexedChannel;
  type: AlertType;
  key: string;
  reason: string;
  figures: Record<string, unknown>;
  /** Texts besides the channel's own that keyword filters may match. */
  texts: string[];
}

const FITS: Record<AlertContentType, readonly string[]> = { longform: ['longform', 'mixed'], shorts: ['shorts', 'mixed'] };

const number = (value: number | null) => (value === null ? 'unknown' : Math.round(value).toLocaleString('en-US'));
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function outliersOf({ channels }: EngineIndex, core: ScannedChannel, contentType: AlertContentType, now: number): Promise<Trigger[]> {
  const rules = ALERT_RULES.outlier;
  const kind = contentType === 'shorts' ? 'short' : 'long';
  const since = now - rules.windowDays * DAY_MS;
  if (!(await channels.publishedSince(core, since, kind))) return [];
  const noun = kind === 'short' ? 'shorts' : 'long videos';
  const recent = await channels.recentVideoStats(core, kind, rules.recentVideos);
  const out: Trigger[] = [];
  for (const video of recent) {
    if (video.published_ms <= since || video.views === null || video.views < rules.minViews) continue;
    const others = recent.flatMap((other) => (other.video_id !== video.video_id && other.views !== null ? [other.views] : []));
    if (others.length < rules.minOthers) continue;
    const usual = median(others);
    if (video.views < rules.multiple * Math.max(usual, 1)) continue;
    const title = (await channels.videoTitle(video.video_id)) ?? video.video_id;
    const multiple = Math.round((video.views / Math.max(usual, 1)) * 10) / 10;
    out.push({
      channel: (await channels.byIdx(core.idx))!,
      type: 'outlier',
      key: video.video_id,
      reason: `"${title}" has ${number(video.views)} views, ${multiple}× the channel's usual ${number(usual)} (median of its ${others.length} other recent ${noun}).`,
      figures: {
        video_id: video.video_id,
        video_title: title,
        video_kind: video.kind,
        published_at: new Date(video.published_ms).toISOString().replace('.000Z', 'Z'),
        views: video.views,
        usual_views: Math.round(usual),
        multiple,
      },
      texts: [title],
    });
  }
  return out;
}

async function newChannels({ channels }: EngineIndex, contentType: AlertContentType, now: number): Promise<Trigger[]> {
  const since = isoDay(now - ALERT_RULES.new_channel.windowDays * DAY_MS);
  return (await channels.createdSince(since))
    .filter((channel) => channel.content_type !== null && FITS[contentType].includes(channel.content_type))
    .map((channel) => {
      const ageDays = Math.floor((now - Date.parse(`${channel.created_at}T00:00:00Z`)) / DAY_MS);
      return {
        channel,
        type: 'new_channel' as const,
        key: 'new',
        reason: `New channel, created ${channel.created_at} (${ageDays === 0 ? 'today' : ageDays === 1 ? '1 day ago' : `${ageDays} days ago`}); ${number(channel.subscribers)} subscribers and ${channel.video_count ?? 'an unknown number of'} video(s) so far.`,
        figures: { created_at: channel.created_at, age_days: ageDays, subscribers: channel.subscribers, total_views: channel.total_views, video_count: channel.video_count },
        texts: [],
      };
    });
}

async function breakoutOf({ channels, statistics }: EngineIndex, core: ScannedChannel, now: number): Promise<Trigger[]> {
  const rules = ALERT_RULES.breakout;
  // The window ends at the index's latest figures: now on the sample platform, the latest read on
  // the live one. A read older than a day says nothing of the last 24 hours.
  const at = (statistics.coverage ? await statistics.coverage(core) : null)?.latest_ms ?? now;
  if (at <= now - DAY_MS) return [];
  const [dayAgo, current] = (await statistics.totalsAt(core, [at - DAY_MS, at]))!;
  if (dayAgo!.views === null || current!.views === null) return [];
  const views24h = current!.views - dayAgo!.views;
  if (views24h < rules.minViews) return [];
  const [start] = (await statistics.totalsAt(core, [at - (rules.baselineDays + 1) * DAY_MS]))!;
  if (start!.views === null) return [];
  const average = (dayAgo!.views - start!.views) / rules.baselineDays;
  if (views24h < rules.multiple * Math.max(average, 1)) return [];
  const multiple = Math.round((views24h / Math.max(average, 1)) * 10) / 10;
  const subscribers24h = current!.subscribers === null || dayAgo!.subscribers === null ? null : current!.subscribers - dayAgo!.subscribers;
  const subscriberText = subscribers24h === null ? '' : `; ${subscribers24h >= 0 ? '+' : ''}${number(subscribers24h)} subscribers`;
  return [
    {
      channel: (await channels.byIdx(core.idx))!,
      type: 'breakout',
      key: isoDay(at),
      reason: `${number(views24h)} views in the last 24 hours, ${multiple}× its average of ${number(average)} a day over the 28 days before${subscriberText}.`,
      figures: { views_24h: views24h, average_daily_views_28d: Math.round(average), multiple, subscribers_24h: subscribers24h, subscribers: current!.subscribers },
      texts: [],
    },
  ];
}

/**
 * Each type's triggers over the whole world at world time `now`, computed once per (type, content
 * type) however many alerts of it a cycle evaluates. Scans are narrowed in SQL first (content
 * type, a recent upload of the kind, old enough for a baseline).
 */
export class TriggerCache {
  private readonly computed = new Map<string, Trigger[]>();
  /** Breakouts by channel: a mixed channel is scanned for longform and shorts alerts alike, and judged once. */
  private readonly breakouts = new Map<number, Trigger[]>();

  constructor(
    private readonly index: EngineIndex,
    readonly now: number,
  ) {}

  async prepare(needed: ReadonlyArray<{ type: AlertType; contentType: AlertContentType }>): Promise<void> {
    for (const { type, contentType } of needed) {
      const key = `${type}/${contentType}`;
      if (this.computed.has(key)) continue;
      this.computed.set(key, await this.compute(type, contentType));
    }
  }

  private async compute(type: AlertType, contentType: AlertContentType): Promise<Trigger[]> {
    const { index, now } = this;
    if (type === 'new_channel') return newChannels(index, contentType, now);
    const out: Trigger[] = [];
    if (type === 'outlier') {
      const kind = contentType === 'shorts' ? 'short' : 'long';
      const since = now - ALERT_RULES.outlier.windowDays * DAY_MS;
      for await (const page of index.channels.scan({ contentTypes: FITS[contentType], publishedAfter: { kind, ms: since } })) {
        for (const core of page) out.push(...(await outliersOf(index, core, contentType, now)));
      }
    } else {
      const createdBy = isoDay(now - (ALERT_RULES.breakout.baselineDays + 1) * DAY_MS);
      const figuresBefore = [0, DAY_MS, (ALERT_RULES.breakout.baselineDays + 1) * DAY_MS];
      for await (const page of index.channels.scan({ contentTypes: FITS[contentType], createdBy, figuresBefore })) {
        for (const core of page) {
          let found = this.breakouts.get(core.idx);
          if (!found) this.breakouts.set(core.idx, (found = await breakoutOf(index, core, now)));
          out.push(...found);
        }
      }
    }
    return out;
  }

  async triggers(type: AlertType, contentType: AlertContentType): Promise<Trigger[]> {
    await this.prepare([{ type, contentType }]);
    return this.computed.get(`${type}/${contentType}`)!;
  }
}
