/**
 * `tubekit video <url>`: one video's metadata as `yt-dlp --dump-json` gives it (`--json` is the
 * API body of `GET /api/video`, an endpoint of ours); a card for people.
 */
import type { Command } from 'commander';
import type { RouteOutput } from '../../core/routes.js';
import { parseVideoLink } from '../../core/video-link.js';
import type { CliApp } from '../app.js';
import { printCard } from '../card.js';
import { usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import type { IO } from '../io.js';

type VideoBody = RouteOutput<'video.info'>;

/** A figure the platform did not give: said, not left out or shown as 0. */
const UNKNOWN = 'unknown';

export function registerVideo(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('video')
      .description("One video's metadata (title, channel, duration, views, upload date, …), as yt-dlp --dump-json gives it")
      .argument('<video_url>', 'watch link, youtu.be short link or Shorts URL'),
    [
      'tubekit video https://youtu.be/GHGuclERoWA',
      'tubekit video https://www.youtube.com/shorts/DgaCE_roV-w --json',
      "tubekit video https://youtu.be/GHGuclERoWA --jq '{title, channel, duration, view_count}'",
    ],
  ).action(async (videoUrl: string) => {
    // A link that is plainly wrong exits 2 before any call, as `download` does.
    const link = parseVideoLink(videoUrl);
    if (!link.ok) throw usageError(`<video_url> ${link.message}.`);
    const body = await app.call('video.info', { url: videoUrl });
    await app.render(body, (shown) => printVideoCard(app.io, shown));
  });
}

async function printVideoCard(io: IO, body: VideoBody): Promise<void> {
  const upcoming = body.live_status === 'is_upcoming';
  await printCard(io, body.title, [
    ['id', body.id],
    ['title', body.title],
    ['channel', body.channel ?? undefined],
    ['channel_id', body.channel_id],
    ['uploader_id', body.uploader_id ?? undefined],
    ['duration', body.duration_string ?? (upcoming ? undefined : UNKNOWN)],
    ['view_count', body.view_count ?? UNKNOWN],
    ['like_count', body.like_count ?? UNKNOWN],
    ['comment_count', body.comment_count ?? UNKNOWN],
    [upcoming ? 'release_date' : 'upload_date', (upcoming ? body.release_date : body.upload_date) ?? UNKNOWN],
    ['date_exact', body.published_at_exact === false ? 'no (estimated from a relative date)' : undefined],
    ['media_type', body.media_type],
    ['live_status', body.live_status],
    ['captions', body.captions ?? 'none'],
    ['webpage_url', body.webpage_url],
    ['thumbnail', body.thumbnail],
  ]);
}
