import type { DoctorCheck } from '../check.js';

/** Live downloads run it; the real site changes often, so an old one is flagged even when it runs. */
export const ytdlpCheck: DoctorCheck = {
  id: 'yt-dlp',
  title: 'yt-dlp',
  async run({ settings, env, platform }) {
    const needed = settings.mode === 'local' && (await platform()) === 'live';
    const { ytdlpReport } = await import('../../../engine/platform/factory/media-tools.js');
    const report = await ytdlpReport(env);
    const { probe } = report;
    if (!probe.found) {
      return { status: needed ? 'fail' : 'skip', summary: `${probe.command}: ${probe.reason}; live downloads need it`, fix: report.installAdvice, needed };
    }
    const age = report.ageDays(probe);
    const summary = `${probe.version}${age === null ? '' : ` (${age} days old)`} at ${probe.command}`;
    if (report.compare(probe.version, report.minimum) < 0) {
      return { status: needed ? 'fail' : 'warn', summary: `${summary}: older than ${report.minimum}, the oldest tubekit can drive`, fix: report.installAdvice, needed };
    }
    if (age === null || age > report.staleAfterDays) {
      return {
        status: 'warn',
        summary: `${summary}: likely too old for the real site, which changes often (fine for offline tests)`,
        fix: report.installAdvice,
        needed,
      };
    }
    return { status: 'ok', summary, needed };
  },
};
