import { toolVersionLine } from '../tool-version.js';
import type { DoctorCheck } from '../check.js';

/** Live downloads check what yt-dlp made with it; it comes with ffmpeg. */
export const ffprobeCheck: DoctorCheck = {
  id: 'ffprobe',
  title: 'ffprobe',
  async run({ settings, env, platform }) {
    const needed = settings.mode === 'local' && (await platform()) === 'live';
    const { ffprobeCommand } = await import('../../../engine/media/ffprobe.js');
    const found = await toolVersionLine(ffprobeCommand(env), ['-hide_banner', '-version']);
    if (found.found) return { status: 'ok', summary: found.line.replace(/ Copyright.*$/, ''), needed };
    return {
      status: needed ? 'fail' : 'warn',
      summary: `not available (${found.reason}); live downloads need it`,
      fix: 'It comes with ffmpeg: install ffmpeg (sudo apt-get install ffmpeg, brew install ffmpeg), or set FFPROBE_PATH.',
      needed,
    };
  },
};
