import { toolVersionLine } from '../tool-version.js';
import type { DoctorCheck } from '../check.js';

const INSTALL = 'Install ffmpeg (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg; Windows: winget install ffmpeg), or set FFMPEG_PATH.';

/** Video and audio downloads need it on both platforms (rendered or fetched); the remote service has its own. */
export const ffmpegCheck: DoctorCheck = {
  id: 'ffmpeg',
  title: 'ffmpeg',
  async run({ settings, env }) {
    const needed = settings.mode === 'local';
    const found = await toolVersionLine(env.FFMPEG_PATH || 'ffmpeg', ['-hide_banner', '-version']);
    if (found.found) return { status: 'ok', summary: found.line.replace(/ Copyright.*$/, ''), needed };
    return { status: needed ? 'fail' : 'skip', summary: `not available (${found.reason}); video and audio downloads need it`, fix: INSTALL, needed };
  },
};
