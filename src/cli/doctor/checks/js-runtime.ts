import type { DoctorCheck } from '../check.js';

/** yt-dlp solves the site's challenges with an external JS runtime from 2025.11.12 on: tubekit hands it this Node. */
export const jsRuntimeCheck: DoctorCheck = {
  id: 'js-runtime',
  title: 'JS runtime for yt-dlp',
  async run({ settings, env, platform }) {
    const needed = settings.mode === 'local' && (await platform()) === 'live';
    const { ytdlpReport } = await import('../../../engine/platform/factory/media-tools.js');
    const report = await ytdlpReport(env);
    const node = `node ${process.version} (${process.execPath})`;
    const major = Number(process.versions.node.split('.')[0]);
    // yt-dlp's own floor for Node as a runtime.
    if (major < 20) return { status: needed ? 'fail' : 'warn', summary: `${node} is older than yt-dlp accepts (20)`, fix: 'Run tubekit on Node 20.19 or newer.', needed };
    if (!report.probe.found) return { status: 'skip', summary: `${node}; no yt-dlp to hand it to`, needed: false };
    if (report.probe.jsRuntimes) return { status: 'ok', summary: `${node}, passed with --js-runtimes`, needed };
    return {
      status: needed ? 'warn' : 'skip',
      summary: `${node} is ready, but yt-dlp ${report.probe.version} predates JS runtimes (${report.jsRuntimesSince}); the real site needs them`,
      fix: 'A current yt-dlp (see the yt-dlp line) uses it.',
      needed,
    };
  },
};
