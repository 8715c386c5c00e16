/**
 * `tubekit doctor`: is everything the current configuration needs here? One line a check, ✓ or ✗
 * (! works but should be seen to; – not used here) with the fix; `--json` for CI. Exit 0 only when
 * every check the configuration needs passes.
 */
import type { Command } from 'commander';
import { ExitCode } from '../../core/exit-codes.js';
import type { CliApp } from '../app.js';
import type { CheckResult, CheckStatus, DoctorContext } from '../doctor/check.js';
import { withExamples } from '../help.js';

const MARKS: Record<CheckStatus, string> = { ok: '✓', fail: '✗', warn: '!', skip: '–' };

export function registerDoctor(program: Command, app: CliApp): void {
  withExamples(program.command('doctor').description('Check that what this configuration needs is installed and answers (tools, data dir, platform, remote service)'), [
    'tubekit doctor',
    'tubekit --data-dir ~/tubekit-live doctor        # a live data dir needs yt-dlp, ffprobe and the site',
    'tubekit doctor --json | jq -r \'.checks[] | select(.status == "fail") | .fix\'',
    'tubekit --base-url https://api.example.com doctor   # remote: the service answers and takes the key',
  ]).action(async () => {
    const { DOCTOR_CHECKS } = await import('../doctor/checks/index.js');
    const settings = app.settings;
    let platform: Promise<'sample' | 'live'> | undefined;
    const context: DoctorContext = {
      settings,
      env: app.io.streams.env,
      analysisSettings: () => app.analysisSettings(),
      speechSettings: () => app.speechSettings(),
      platform: () =>
        (platform ??= (async () => {
          const [{ databaseFile }, { inspectDatabase }] = await Promise.all([import('../../engine/paths.js'), import('../../engine/store/inspect.js')]);
          return inspectDatabase(databaseFile(settings.dataDir)).platform;
        })()),
    };
    // Each check stands alone: one that throws is a failed line, not a failed doctor.
    const results = await Promise.all(
      DOCTOR_CHECKS.map(async (check) => {
        let result: CheckResult;
        try {
          result = await check.run(context);
        } catch (error) {
          result = { status: 'fail', summary: `could not be checked: ${(error as Error).message}`, needed: true };
        }
        return { id: check.id, title: check.title, ...result };
      }),
    );
    const failed = results.filter((result) => result.status === 'fail' && result.needed);
    const body = { ok: failed.length === 0, mode: settings.mode, checks: results };
    await app.render(body, () => {
      const width = Math.max(...results.map((result) => result.title.length));
      for (const result of results) {
        const mark = MARKS[result.status];
        const shown = result.status === 'fail' ? app.io.paint(mark, 'red') : result.status === 'warn' ? app.io.paint(mark, 'yellow') : result.status === 'ok' ? app.io.paint(mark, 'green') : mark;
        const fix = result.fix && result.status !== 'ok' ? ` → ${result.fix}` : '';
        app.io.out(`${shown} ${result.title.padEnd(width)}  ${result.summary}${fix}`);
      }
    });
    if (failed.length > 0) {
      app.io.note(`${failed.length} needed ${failed.length === 1 ? 'check fails' : 'checks fail'}: ${failed.map((result) => result.title).join(', ')}.`);
      process.exitCode = ExitCode.failure;
    }
  });
}
