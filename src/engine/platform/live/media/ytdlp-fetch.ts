/**
 * Makes a chosen download with yt-dlp from the metadata already read (`--load-info-json`: no second
 * extraction), in the fetch's own folder, then checks what came out with ffprobe:
 *   video      `-f <streams> --merge-output-format mp4`, its English captions as SRT; a section
 *              `--download-sections *S-E --force-keyframes-at-cuts` (cut exactly); then ffmpeg
 *              re-encodes only a stream that is not H.264/AAC or too high, else copies, and adds
 *              the captions (cut to the section) as the MP4's English subtitle track;
 *   audio      `-x --audio-format mp3 --audio-quality 128K` (a section cut the same way);
 *   subtitles  `--skip-download --write-subs|--write-auto-subs --sub-langs <en…> --convert-subs srt`.
 * The file reaches `output` by a rename once complete, so nothing partial is ever there.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FetchedMedia, MediaChoice, MediaDescription, MediaFetchOptions, MediaProgress, MediaSection } from '../../media.js';
import { runFfmpeg } from '../../../media/ffmpeg.js';
import { audioStream, probeMedia, videoStream } from '../../../media/ffprobe.js';
import { parseSrt, transcriptToSrt } from '../../../media/subtitles.js';
import type { YtdlpChoice } from './format-choice.js';
import type { YtdlpInfo } from './ytdlp-info.js';
import { PROGRESS_ARGS, runYtdlp, type YtdlpProgressLine } from './ytdlp-run.js';
import { ServiceError } from '../../../../core/errors.js';
import { watchTransferRate, type MinimumRate } from './transfer-rate.js';

/** How yt-dlp is run for one fetch: its command and the options every run takes. */
export interface YtdlpRunner {
  command: string;
  args: string[];
  /** The slowest the transfer may go (transfer-rate.ts); none: no minimum. */
  minRate?: MinimumRate;
}

const seconds = (value: number) => (Math.round(value * 1000) / 1000).toString();

/** A section that is not the whole video, as yt-dlp's `--download-sections` wants it. */
function sectionArgs(section: MediaSection, videoSeconds: number, exactCuts: boolean): string[] {
  const whole = section.start <= 0 && section.start + section.duration >= videoSeconds - 0.001;
  if (whole) return [];
  return ['--download-sections', `*${seconds(section.start)}-${seconds(section.start + section.duration)}`, ...(exactCuts ? ['--force-keyframes-at-cuts', '--downloader-args', 'ffmpeg_o:-preset veryfast'] : [])];
}

/** The caption track as SRT beside the media (`media.<lang>.srt`). */
const captionArgs = (captions: YtdlpChoice['captions']) =>
  captions ? [captions.auto ? '--write-auto-subs' : '--write-subs', '--sub-langs', captions.language, '--convert-subs', 'srt'] : [];

function formatArgs(choice: MediaChoice, chosen: YtdlpChoice, section: MediaSection, videoSeconds: number): string[] {
  if (choice.format === 'subtitles') return ['--skip-download', ...captionArgs(chosen.captions)];
  if (choice.format === 'audio') return ['-f', chosen.formatSelector, '-x', '--audio-format', 'mp3', '--audio-quality', '128K', ...sectionArgs(section, videoSeconds, false)];
  return ['-f', chosen.formatSelector, '--merge-output-format', 'mp4', ...captionArgs(chosen.captions), ...sectionArgs(section, videoSeconds, true)];
}

/** Sums yt-dlp's per-stream progress into the fetch's. */
function progressOf(chosen: YtdlpChoice, report: (progress: MediaProgress) => void) {
  const expected = chosen.formats.reduce((sum, format) => sum + (format.filesize ?? format.filesize_approx ?? 0), 0) || null;
  const files = new Map<string, { downloaded: number; total: number | null }>();
  return (line: YtdlpProgressLine) => {
    files.set(line.filename ?? '', { downloaded: line.downloaded_bytes ?? 0, total: line.total_bytes ?? line.total_bytes_estimate ?? null });
    const downloaded = [...files.values()].reduce((sum, file) => sum + file.downloaded, 0);
    const seen = [...files.values()].reduce((sum, file) => sum + (file.total ?? 0), 0);
    const total = expected && files.size < chosen.formats.length ? Math.max(expected, seen) : seen || expected;
    report({
      fraction: total ? Math.min(1, downloaded / total) : null,
      downloaded_bytes: downloaded,
      total_bytes: total,
      eta_seconds: typeof line.eta === 'number' ? line.eta : null,
    });
  };
}

/** The file yt-dlp made in `dir` for the format (the name it chose from `-o media.%(ext)s`). */
async function producedFile(dir: string, choice: MediaChoice): Promise<string> {
  const names = await fs.promises.readdir(dir);
  const wanted = choice.format === 'subtitles' ? /^media\..+\.srt$/ : choice.format === 'audio' ? /^media\.mp3$/ : /^media\.(mp4|mkv|webm|mov)$/;
  const name = names.find((candidate) => wanted.test(candidate));
  if (!name) {
    throw new ServiceError({ status: 502, code: 'upstream_error', message: `yt-dlp finished without making the ${choice.format} file (found: ${names.join(', ') || 'nothing'}).`, hint: 'Update yt-dlp; if it keeps failing, report it.' });
  }
  return path.join(dir, name);
}

/**
 * H.264/AAC MP4 at most `height` high: streams that already are so are copied, others re-encoded;
 * the captions (of the whole video) become its English subtitle track, cut to the section.
 */
async function finishVideo(made: string, target: string, description: MediaDescription, chosen: YtdlpChoice, section: MediaSection, signal?: AbortSignal): Promise<void> {
  const dir = path.dirname(made);
  const captions = (await fs.promises.readdir(dir)).find((name) => /^media\..+\.srt$/.test(name));
  // Cut and timed from the section's start here: ffmpeg's seeking in a subtitle input is not exact.
  const cut = captions ? transcriptToSrt(parseSrt(await fs.promises.readFile(path.join(dir, captions), 'utf8')), section) : '';
  if (cut) await fs.promises.writeFile(path.join(dir, 'section.srt'), cut);
  const subtitleInput = cut ? ['-i', path.join(dir, 'section.srt')] : [];
  const probed = await probeMedia(made, signal);
  const video = videoStream(probed);
  const audio = audioStream(probed);
  const scale = chosen.scaleTo !== null && (video?.height ?? 0) > chosen.scaleTo ? chosen.scaleTo : null;
  const copyVideo = video?.codec === 'h264' && scale === null;
  const copyAudio = !audio || audio.codec === 'aac';
  await runFfmpeg(
    [
      '-i', made,
      ...subtitleInput,
      '-map', '0:v:0', ...(audio ? ['-map', '0:a:0'] : []),
      ...(cut ? ['-map', '1:s:0', '-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng'] : []),
      ...(copyVideo ? ['-c:v', 'copy'] : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', ...(scale ? ['-vf', `scale=-2:${scale}`] : [])]),
      ...(audio ? (copyAudio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k']) : []),
      '-metadata', `title=${description.title}`,
      '-metadata', `comment=https://www.youtube.com/watch?v=${description.video_id}`,
      '-movflags', '+faststart',
      '-f', 'mp4', target,
    ],
    { signal },
  );
}

export async function fetchWithYtdlp(
  runner: YtdlpRunner,
  description: MediaDescription,
  choice: MediaChoice,
  section: MediaSection,
  output: string,
  options: MediaFetchOptions,
): Promise<FetchedMedia> {
  const info = description.source as YtdlpInfo;
  const chosen = choice.source as YtdlpChoice;
  const dir = path.join(options.workDir, 'ytdlp');
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  // A failed fetch would otherwise retry from the watch page, a second extraction we did not ask for.
  const { webpage_url: _page, original_url: _original, ...offline } = info;
  const infoFile = path.join(dir, 'info.json');
  await fs.promises.writeFile(infoFile, JSON.stringify(offline), { mode: 0o600 });
  const videoSeconds = info.duration ?? description.duration_seconds;
  // A trickling stream is stopped at the minimum rate, its reason answered instead of the abort's.
  const tooSlow = new AbortController();
  let slow: ServiceError | undefined;
  const stopWatching = runner.minRate
    ? watchTransferRate(dir, runner.minRate, description.video_id, (error) => {
        slow = error;
        tooSlow.abort(error);
      })
    : () => undefined;
  try {
    await runYtdlp(
      runner.command,
      [...runner.args, '--load-info-json', infoFile, '-o', path.join(dir, 'media.%(ext)s'), '--no-mtime', ...PROGRESS_ARGS, ...formatArgs(choice, chosen, section, videoSeconds)],
      {
        videoId: description.video_id,
        cwd: dir,
        signal: options.signal ? AbortSignal.any([options.signal, tooSlow.signal]) : tooSlow.signal,
        onProgress: options.onProgress && progressOf(chosen, options.onProgress),
      },
    );
  } catch (error) {
    throw slow ?? error;
  } finally {
    stopWatching();
  }
  const made = await producedFile(dir, choice);
  const finished = path.join(options.workDir, `finished${path.extname(output) || path.extname(made)}`);
  if (choice.format === 'video') await finishVideo(made, finished, description, chosen, section, options.signal);
  else await fs.promises.rename(made, finished);
  const size = (await fs.promises.stat(finished)).size;
  const probed = choice.format === 'subtitles' ? null : await probeMedia(finished, options.signal);
  await fs.promises.rename(finished, output);
  return {
    size_bytes: size,
    duration_seconds: probed ? probed.duration_seconds : description.duration_seconds,
    height: probed ? (videoStream(probed)?.height ?? null) : null,
  };
}
