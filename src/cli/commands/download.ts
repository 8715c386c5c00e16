import path from 'node:path';
import { Option, type Command } from 'commander';
import { parseMediaTime } from '../../core/media-time.js';
import type { RouteOutput } from '../../core/routes.js';
import { DOWNLOAD_FORMATS, DOWNLOAD_QUALITIES } from '../../core/schemas/media.js';
import { parseVideoLink } from '../../core/video-link.js';
import type { CliApp } from '../app.js';
import { outputTarget, finalPath, servedFileName } from '../download/output-target.js';
import { completesWithValues } from '../completion/dynamic.js';
import { cancelled, usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import { saveServiceFile } from '../save-file.js';
import { formatBytes } from '../transfer-progress.js';

interface DownloadFlags {
  format: (typeof DOWNLOAD_FORMATS)[number];
  quality?: string;
  start?: string;
  end?: string;
  output?: string;
  force?: boolean;
  urlOnly?: boolean;
}

type DownloadBody = RouteOutput<'download'>;

const EXTENSIONS = { video: 'mp4', audio: 'mp3', subtitles: 'srt' } as const;

export function registerDownload(program: Command, app: CliApp): void {
  const download = withExamples(
    program
      .command('download')
      .description('Download a video (MP4), its audio (MP3) or its subtitles (SRT), whole or clipped')
      .argument('<video_url>', 'watch link, youtu.be short link or Shorts URL')
      .addOption(new Option('--format <format>', 'what to download').choices(DOWNLOAD_FORMATS).default('video'))
      .option('--quality <quality>', `video frame height: ${DOWNLOAD_QUALITIES.join(', ')} (default 720p)`)
      .option('--start <time>', 'clip from this time: 1:30, 00:01:30, 90, 90s or 1m30s')
      .option('--end <time>', 'clip up to this time (past the end: up to the end)')
      .option('-o, --output <path>', 'file or directory to save to (- for stdout); default: the current directory')
      .option('--force', 'overwrite a file that already exists')
      .option('--url-only', 'print the download URL and fetch nothing'),
    [
      'tubekit download https://www.youtube.com/watch?v=GHGuclERoWA --start 1:30 --end 2:00',
      'tubekit download https://youtu.be/GHGuclERoWA --format audio -o talk.mp3 --force',
      'tubekit download https://www.youtube.com/shorts/DgaCE_roV-w --quality 1080p -o .',
      'tubekit download https://youtu.be/FjSpLUNonik --format subtitles -o - | head -8',
      'tubekit --json download https://youtu.be/GHGuclERoWA --format subtitles --url-only | jq -r .download_url',
    ],
  );
  // Not commander choices: `1080` is accepted for `1080p`.
  completesWithValues(download, DOWNLOAD_QUALITIES, '--quality').action(async (videoUrl: string, flags: DownloadFlags) => {
    const input = downloadInput(videoUrl, flags);
    if (flags.urlOnly && flags.output !== undefined) throw usageError('--url-only fetches nothing, so there is nothing to save with -o.', 'Drop one of them.');
    const target = flags.urlOnly ? undefined : outputTarget(app, flags.output, Boolean(flags.force));

    const stop = new AbortController();
    const onInterrupt = () => stop.abort(new Error('interrupted'));
    // `on`, not `once`: execa's exit hook re-raises a signal nobody else listens to, killing us before the cleanup.
    process.on('SIGINT', onInterrupt);
    try {
      const spinner = await app.io.spinner(`Preparing the ${flags.format === 'video' ? 'video' : flags.format}…`);
      let body: DownloadBody;
      try {
        // A fetch in this process reports how far it is (the live platform's yt-dlp); over HTTP the call answers when done.
        const onProgress = (progress: { fraction: number | null; downloaded_bytes: number; eta_seconds: number | null }) =>
          spinner.update(`Fetching the ${flags.format === 'video' ? 'video' : flags.format}… ${fetchedText(progress)}`);
        body = await app.call('download', input, { signal: stop.signal, onProgress });
      } finally {
        spinner.stop();
      }
      // A lower height than asked is said on stderr too, so a person sees it beside the URL or file.
      if (body.quality_note && !app.json) app.io.note(body.quality_note);
      if (!target) {
        await app.render(body, (shown) => app.io.out(shown.download_url));
        return;
      }
      const options = { totalBytes: body.size_bytes, force: Boolean(flags.force), signal: stop.signal };
      if (target.kind === 'stdout') {
        await saveServiceFile(app, body.download_url, '-', options);
        return;
      }
      const file = finalPath(target, servedFileName(body.download_url, body.title, EXTENSIONS[body.format]), Boolean(flags.force));
      await saveServiceFile(app, body.download_url, file, options);
      if (app.json) await app.render(body, () => undefined);
      else app.io.out(shownPath(file));
      app.io.note(`Saved ${path.basename(file)}: ${describe(body)}.`);
    } catch (error) {
      if (stop.signal.aborted) throw cancelled('Download cancelled; nothing was saved.');
      throw error;
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
  });
}

/** The request, checked here first: a bad link or time exits 2 before any call. */
function downloadInput(videoUrl: string, flags: DownloadFlags) {
  const link = parseVideoLink(videoUrl);
  if (!link.ok) throw usageError(`<video_url> ${link.message}.`);
  const times: Record<'start' | 'end', number | undefined> = { start: undefined, end: undefined };
  for (const field of ['start', 'end'] as const) {
    const text = flags[field];
    if (text === undefined) continue;
    const time = parseMediaTime(text);
    if (!time.ok) throw usageError(`--${field} ${time.message}.`);
    times[field] = time.seconds;
  }
  if (flags.format !== 'subtitles' && times.start !== undefined && times.end !== undefined && times.start >= times.end) {
    throw usageError(`--start (${flags.start}) must be before --end (${flags.end}).`);
  }
  let quality = flags.quality?.trim().toLowerCase();
  if (quality !== undefined && /^\d+$/.test(quality)) quality = `${quality}p`;
  if (quality !== undefined && !(DOWNLOAD_QUALITIES as readonly string[]).includes(quality)) {
    throw usageError(`--quality must be one of ${DOWNLOAD_QUALITIES.join(', ')}, not "${flags.quality}".`);
  }
  return {
    video_url: videoUrl,
    format: flags.format,
    ...(quality ? { quality: quality as (typeof DOWNLOAD_QUALITIES)[number] } : {}),
    // Times travel as typed: the service parses them the same way and echoes seconds.
    ...(flags.start !== undefined ? { start: flags.start } : {}),
    ...(flags.end !== undefined ? { end: flags.end } : {}),
  };
}

/** Relative to the current directory when inside it, else absolute. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function fetchedText(progress: { fraction: number | null; downloaded_bytes: number; eta_seconds: number | null }): string {
  const parts = [progress.fraction === null ? formatBytes(progress.downloaded_bytes) : `${Math.floor(progress.fraction * 100)}% (${formatBytes(progress.downloaded_bytes)})`];
  if (progress.eta_seconds !== null) parts.push(`${Math.ceil(progress.eta_seconds)} s left`);
  return parts.join(', ');
}

function describe(body: DownloadBody): string {
  const what = body.format === 'video' ? `${body.quality}p video` : body.format === 'audio' ? 'audio' : 'subtitles';
  const length = body.format === 'subtitles' ? 'the whole transcript' : `${body.duration_seconds} s of ${what}`;
  return `${formatBytes(body.size_bytes)}, ${length}${body.cached ? ', from the cache' : ''}`;
}
