/**
 * The live platform's media source: yt-dlp (found and versioned by ytdlp-tool.ts) and ffmpeg.
 * Every run is hermetic (`--ignore-config --no-cache-dir`: nothing of the user's yt-dlp setup
 * leaks in) and goes out as the live platform's reads do: its proxy, a copy of its cookies file
 * (yt-dlp writes its cookie jar back; the user's file stays untouched), and this Node as the JS
 * runtime for the site's challenges when the yt-dlp version supports one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError } from '../../../../core/errors.js';
import { withScratchDir } from '../../../scratch.js';
import type { FetchedMedia, MediaChoice, MediaDescription, MediaFetchOptions, MediaRequest, MediaSection, PlatformMedia } from '../../media.js';
import type { LiveNetworkSettings } from '../network-options.js';
import { chooseFormats } from './format-choice.js';
import type { YtdlpRunner } from './ytdlp-fetch.js';
import type { YtdlpInfo } from './ytdlp-info.js';
import type { YtdlpTool } from './ytdlp-tool.js';

// yt-dlp's runner, ffmpeg and execa are imported when media is asked for: opening the platform loads none of them.
const requireYtdlp = async (env: NodeJS.ProcessEnv) => (await import('./ytdlp-tool.js')).requireYtdlp(env);

/** yt-dlp's options for every run: hermetic, through the platform's network settings. */
export function ytdlpBaseArgs(tool: YtdlpTool, network: Pick<LiveNetworkSettings, 'proxy'>, cookiesCopy: string | null): string[] {
  return [
    '--ignore-config',
    '--no-cache-dir',
    '--no-warnings',
    '--socket-timeout', '20',
    ...(network.proxy ? ['--proxy', network.proxy] : []),
    ...(cookiesCopy ? ['--cookies', cookiesCopy] : []),
    ...(tool.jsRuntimes ? ['--js-runtimes', `node:${process.execPath}`] : []),
  ];
}

export class LiveMedia implements PlatformMedia {
  constructor(
    private readonly network: LiveNetworkSettings,
    private readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async describe(videoId: string, signal?: AbortSignal): Promise<MediaDescription> {
    const tool = await requireYtdlp(this.env);
    const { readYtdlpInfo } = await import('./ytdlp-info.js');
    const read = (dir: string | null) => readYtdlpInfo(videoId, { tool, args: ytdlpBaseArgs(tool, this.network, dir && this.copyCookies(dir)), origin: this.network.origin, signal });
    // A scratch folder only holds the copy of the cookies file.
    const info = this.network.cookiesFile && !this.network.origin ? await withScratchDir(this.dataDir, 'ytdlp', read) : await read(null);
    return describeInfo(videoId, info);
  }

  choose(description: MediaDescription, request: MediaRequest): MediaChoice {
    return chooseFormats(description.source as YtdlpInfo, request);
  }

  async fetch(description: MediaDescription, choice: MediaChoice, section: MediaSection, output: string, options: MediaFetchOptions): Promise<FetchedMedia> {
    const tool = await requireYtdlp(this.env);
    const runner: YtdlpRunner = { command: tool.command, args: ytdlpBaseArgs(tool, this.network, this.copyCookies(options.workDir)), minRate: this.network.mediaMinRate };
    const { fetchWithYtdlp } = await import('./ytdlp-fetch.js');
    return fetchWithYtdlp(runner, description, choice, section, output, options);
  }

  /** A private copy of the cookies file in `dir`, or null without one. */
  private copyCookies(dir: string): string | null {
    if (!this.network.cookiesFile) return null;
    const copy = path.join(dir, 'cookies.txt');
    try {
      fs.copyFileSync(this.network.cookiesFile, copy);
      fs.chmodSync(copy, 0o600);
    } catch (error) {
      throw new ServiceError({
        status: 400,
        code: 'invalid_request',
        message: `Cannot read the cookies file ${this.network.cookiesFile} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}).`,
        hint: 'Pass the path of a cookies.txt exported from a browser (TUBEKIT_COOKIES).',
      });
    }
    return copy;
  }
}

/** The metadata as a media description; a live or upcoming stream has no file to fetch yet. */
function describeInfo(videoId: string, info: YtdlpInfo): MediaDescription {
  const unavailable = (kind: string, advice: string) =>
    new ServiceError({ status: 400, code: 'video_unavailable', message: `Video unavailable (${kind}): ${videoId} ${advice}` });
  if (info.live_status === 'is_upcoming') throw unavailable('not yet available', 'has not premiered or started yet; try again once it has.');
  if (info.is_live || info.live_status === 'is_live') throw unavailable('live now', 'is streaming live; download it once the stream has ended.');
  if (!info.duration || info.duration <= 0) throw unavailable('no length', 'has no length in its metadata: nothing to download.');
  // The asked id, not the metadata's own: only a validated id may name anything (cache folders, files).
  return {
    video_id: videoId,
    title: typeof info.title === 'string' ? info.title : videoId,
    channel_id: info.channel_id ?? '',
    duration_seconds: info.duration,
    source: info,
  };
}
