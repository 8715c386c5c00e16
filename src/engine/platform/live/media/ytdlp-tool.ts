/**
 * Which yt-dlp runs live downloads: `TUBEKIT_YTDLP` (a path), else `yt-dlp` on PATH. Its version
 * is read once per command per process (`yt-dlp --version`, a date such as 2023.03.04) and decides
 * what it is asked to do: features are detected by version, never assumed.
 */
import { execa } from 'execa';
import { ServiceError } from '../../../../core/errors.js';

/** The oldest yt-dlp whose options these flows use (Debian 12's). */
export const MIN_YTDLP_VERSION = '2023.03.04';
/** From this release on, yt-dlp solves the platform's challenges with an external JS runtime (`--js-runtimes`). */
export const JS_RUNTIMES_SINCE = '2025.11.12';
/** A yt-dlp older than this many days likely fails on the real site, which changes often. */
export const STALE_AFTER_DAYS = 90;

export const INSTALL_ADVICE =
  'Install a current yt-dlp: the standalone binary from https://github.com/yt-dlp/yt-dlp/releases/latest ' +
  '(put it on PATH or point TUBEKIT_YTDLP at it), `pipx install yt-dlp`, or your distribution\'s package (may be old).';

export interface YtdlpTool {
  command: string;
  /** As printed: "2023.03.04", or a nightly's "2025.11.12.232455". */
  version: string;
  /** The release day, UTC, when the version is a date. */
  released: Date | null;
  /** `--js-runtimes node:<path>` is understood. */
  jsRuntimes: boolean;
}

export type YtdlpProbe = ({ found: true } & YtdlpTool) | { found: false; command: string; reason: string };

export function ytdlpCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.TUBEKIT_YTDLP || 'yt-dlp';
}

/** "2023.03.04" → [2023, 3, 4]; null when the text is not a dated version. */
export function versionDate(version: string): [number, number, number] | null {
  const match = /^(\d{4})\.(\d{1,2})\.(\d{1,2})/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** Compares two dated versions by their date; an undated version counts as older than any. */
export function compareVersions(a: string, b: string): number {
  const left = versionDate(a);
  const right = versionDate(b);
  if (!left || !right) return left ? 1 : right ? -1 : 0;
  for (let index = 0; index < 3; index++) if (left[index] !== right[index]) return left[index]! - right[index]!;
  return 0;
}

/** Days since the version's release (0 for an undated version's unknown age). */
export function versionAgeDays(tool: Pick<YtdlpTool, 'released'>, nowMs = Date.now()): number | null {
  return tool.released ? Math.floor((nowMs - tool.released.getTime()) / 86_400_000) : null;
}

const probes = new Map<string, Promise<YtdlpProbe>>();

/** Runs `<command> --version` once per command per process. */
export function probeYtdlp(env: NodeJS.ProcessEnv = process.env): Promise<YtdlpProbe> {
  const command = ytdlpCommand(env);
  let probe = probes.get(command);
  if (!probe) {
    probe = execa(command, ['--version'], { timeout: 20_000, reject: false, stdin: 'ignore' }).then((result): YtdlpProbe => {
      if (result.failed || result.exitCode !== 0) {
        const reason = (result as { code?: string }).code === 'ENOENT' ? 'not found' : (String(result.stderr ?? '').trim().split('\n').at(-1) || (result.shortMessage ?? 'failed'));
        return { found: false, command, reason };
      }
      const version = String(result.stdout).trim().split('\n')[0] ?? '';
      const date = versionDate(version);
      return {
        found: true,
        command,
        version,
        released: date ? new Date(Date.UTC(date[0], date[1] - 1, date[2])) : null,
        jsRuntimes: compareVersions(version, JS_RUNTIMES_SINCE) >= 0,
      };
    });
    probes.set(command, probe);
  }
  return probe;
}

/** The yt-dlp to run, or the 503 that names what was found and how to install a current one. */
export async function requireYtdlp(env: NodeJS.ProcessEnv = process.env): Promise<YtdlpTool> {
  const probe = await probeYtdlp(env);
  if (!probe.found) {
    throw new ServiceError({
      status: 503,
      code: 'unavailable',
      message: `Live downloads need yt-dlp, which could not be run (${probe.command}: ${probe.reason}).`,
      hint: INSTALL_ADVICE,
    });
  }
  if (compareVersions(probe.version, MIN_YTDLP_VERSION) < 0) {
    throw new ServiceError({
      status: 503,
      code: 'unavailable',
      message: `Live downloads need yt-dlp ${MIN_YTDLP_VERSION} or newer; ${probe.command} is version ${probe.version || '(unknown)'}.`,
      hint: INSTALL_ADVICE,
    });
  }
  return probe;
}
