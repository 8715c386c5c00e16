/**
 * One yt-dlp run: its own process group (yt-dlp runs ffmpeg for merges and sections), tethered to
 * this process so that a SIGKILLed engine leaves nothing running, killed whole when `signal`
 * aborts. Progress comes as one JSON object a line (`--newline --progress-template`), read from
 * stdout as it arrives; a failure rejects with yt-dlp's error as the service's answer.
 */
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { execaTethered, killGroup } from '../../../tethered-process.js';
import { ANSWER_BOUNDS, answerTooLarge } from '../answer-bounds.js';
import { ytdlpFailure } from './ytdlp-failures.js';

/** Marks our progress lines among whatever else yt-dlp prints. */
const PROGRESS_MARK = 'tubekit-progress ';

/** yt-dlp's progress dictionary as JSON, one line each (`j`: JSON conversion of the template). */
export const PROGRESS_ARGS = ['--newline', '--progress-template', `download:${PROGRESS_MARK}%(progress)j`];

export interface YtdlpProgressLine {
  status?: string;
  filename?: string;
  downloaded_bytes?: number;
  total_bytes?: number | null;
  total_bytes_estimate?: number | null;
  eta?: number | null;
}

export function parseProgressLine(line: string): YtdlpProgressLine | null {
  const at = line.indexOf(PROGRESS_MARK);
  if (at < 0) return null;
  try {
    return JSON.parse(line.slice(at + PROGRESS_MARK.length)) as YtdlpProgressLine;
  } catch {
    return null;
  }
}

export interface YtdlpRunOptions {
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: (line: YtdlpProgressLine) => void;
  /** What the run is of, for the failure's message. */
  videoId: string;
  /** More stdout than this kills the run (its `-J` metadata is bounded like the origin's). */
  maxOutputBytes?: number;
}

const DEFAULT_MAX_OUTPUT = ANSWER_BOUNDS.ytdlpInfo.bytes;

/** Runs yt-dlp; resolves with its stdout (progress lines removed) when it succeeds. */
export async function runYtdlp(command: string, args: readonly string[], options: YtdlpRunOptions): Promise<string> {
  options.signal?.throwIfAborted();
  const child = execaTethered(command, args, { cwd: options.cwd, stdin: 'ignore', reject: false, group: true, maxBuffer: 256 * 1024 * 1024, buffer: { stdout: false } });
  const kill = () => killGroup(child.pid);
  options.signal?.addEventListener('abort', kill, { once: true });
  const kept: string[] = [];
  let keptBytes = 0;
  let overflowed = false;
  const lines = readline.createInterface({ input: child.stdout as unknown as Readable });
  lines.on('line', (line) => {
    const progress = parseProgressLine(line);
    if (progress) options.onProgress?.(progress);
    else if (!overflowed) {
      keptBytes += line.length + 1;
      if (keptBytes > (options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT)) {
        overflowed = true;
        kept.length = 0;
        kill();
      } else kept.push(line);
    }
  });
  try {
    const result = await child;
    options.signal?.throwIfAborted();
    if (overflowed) throw answerTooLarge(`yt-dlp's metadata of ${options.videoId}`, 'ytdlpInfo');
    if (result.exitCode !== 0 || result.failed) {
      throw ytdlpFailure(options.videoId, `${String(result.stderr ?? '')}\n${kept.join('\n')}`.trim() || (result.shortMessage ?? 'yt-dlp failed'));
    }
    return kept.join('\n');
  } finally {
    options.signal?.removeEventListener('abort', kill);
    lines.close();
  }
}
