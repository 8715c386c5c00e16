import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

const rows = (stdout: string) => stdout.trim().split('\n').filter(Boolean).map((line) => line.split('\t'));

describe('tubekit CLI (built binary): alerts, collabs and the world clock', () => {
  let cli: CliSandbox;
  beforeAll(() => {
    cli = cliSandbox();
  });
  afterAll(() => cli.cleanup());

  it('creates alerts from flags, prints the API body with --json and TSV rows when piped', async () => {
    const created = await cli.run(['alerts', 'create', 'Breakouts', '--type', 'breakout', '--min-subs', '1000', '--languages', 'English,es', '--json']);
    expect(created.exitCode).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      success: true,
      alert: { id: 1, name: 'Breakouts', alert_type: 'breakout', content_type: 'longform', filters: { min_subs: 1000, languages: ['English', 'Spanish'] } },
    });
    const shorts = await cli.run(['alerts', 'create', 'Shorts outliers', '--content-type', 'shorts']);
    expect(shorts.exitCode).toBe(0);
    expect(rows(shorts.stdout)[0]!.slice(0, 5)).toEqual(['2', 'Shorts outliers', 'outlier', 'shorts', 'yes']);
    expect(shorts.stderr).toMatch(/next cycle/);
    const list = await cli.run(['alerts', 'list']);
    expect(rows(list.stdout).map((row) => row[1])).toEqual(['Breakouts', 'Shorts outliers']);
  });

  it('refuses bad flags before any call (exit 2) and passes the service\'s 400 and 404 on', async () => {
    expect((await cli.run(['alerts', 'create', 'X', '--type', 'viral'])).exitCode).toBe(2);
    const number = await cli.run(['alerts', 'create', 'X', '--min-subs', 'lots']);
    expect(number.exitCode).toBe(2);
    expect(number.stderr).toMatch(/--min-subs must be a whole number/);
    const language = await cli.run(['--json', 'alerts', 'create', 'X', '--languages', 'Klingon']);
    expect(language.exitCode).toBe(2);
    expect(JSON.parse(language.stderr).error).toMatchObject({ status: 400, message: expect.stringMatching(/Klingon/) });
    expect((await cli.run(['alerts', 'update', '1', '--enable', '--disable'])).exitCode).toBe(2);
    expect((await cli.run(['alerts', 'update', '1'])).exitCode).toBe(2);
    expect((await cli.run(['alerts', 'update', '99', '--name', 'Nope'])).exitCode).toBe(6);
    expect((await cli.run(['alerts', 'triggered', '--all', '--page', '2'])).exitCode).toBe(2);
  });

  it('merges filter flags on update, keeping the filters not given', async () => {
    const updated = await cli.run(['alerts', 'update', '1', '--max-subs', '5000000', '--json']);
    expect(JSON.parse(updated.stdout).alert.filters).toEqual({ min_subs: 1000, languages: ['English', 'Spanish'], max_subs: 5_000_000 });
    const cleared = await cli.run(['alerts', 'update', '1', '--clear-filters', '--min-subs', '500', '--json']);
    expect(JSON.parse(cleared.stdout).alert.filters).toEqual({ min_subs: 500 });
  });

  it('advances the world, evaluating alerts, and shows the new world time in engine status', async () => {
    expect((await cli.run(['engine', 'world', 'advance', '1x'])).exitCode).toBe(2);
    expect((await cli.run(['engine', 'world', 'advance', '400d'])).stderr).toMatch(/1 minute to 366 days/);
    const before = JSON.parse((await cli.run(['engine', 'status', '--json'])).stdout);
    const advanced = await cli.run(['engine', 'world', 'advance', '1d', '--json']);
    expect(advanced.exitCode).toBe(0);
    const report = JSON.parse(advanced.stdout);
    expect(report.world).toMatchObject({ from: before.world_time, advanced_ms: 86_400_000 });
    expect(report.world.published_videos).toBeGreaterThan(0);
    expect(report.alerts.alerts_evaluated).toBe(2);
    const after = JSON.parse((await cli.run(['engine', 'status', '--json'])).stdout);
    expect(after).toMatchObject({ world_time: report.world.to, world_advanced: '1d' });
  });

  it('runs the README cron recipe: status, then the new channels, exiting 1 when there are some', async () => {
    const evaluate = await cli.run(['engine', 'alerts', 'evaluate', '--json']);
    expect(JSON.parse(evaluate.stdout)).toMatchObject({ cycle_id: null, alerts_evaluated: 0 });
    const status = await cli.run(['--json', 'alerts', 'status']);
    const body = JSON.parse(status.stdout);
    expect(body.new_channels).toBeGreaterThan(0);
    expect((await cli.run(['alerts', 'status', '--fail-on-new'])).exitCode).toBe(1);
    const fresh = await cli.run(['alerts', 'triggered', '--all', '--fail-on-new']);
    expect(fresh.exitCode).toBe(1);
    expect(fresh.stderr).toMatch(/new triggered channel/);
    const printed = rows(fresh.stdout);
    expect(printed.length).toBeGreaterThan(0);
    for (const row of printed) expect(row[6]).toBe('new');
    // Scripts written when the latest evaluation needed --new keep working.
    expect(rows((await cli.run(['alerts', 'triggered', '--new', '--all'])).stdout)).toEqual(printed);
    const all = JSON.parse((await cli.run(['alerts', 'triggered', '--history', '--all', '--json'])).stdout);
    expect(all.channels.length).toBe(all.total);
    expect(all.channels.filter((row: { new: boolean }) => row.new).length).toBe(printed.length);
  });

  it('lists the latest evaluation\'s channels by default and the whole history with --history', async () => {
    const before = JSON.parse((await cli.run(['alerts', 'triggered', '--history', '--all', '--json'])).stdout);
    expect((await cli.run(['engine', 'world', 'advance', '2d'])).exitCode).toBe(0);
    const latest = JSON.parse((await cli.run(['alerts', 'triggered', '--all', '--json'])).stdout);
    const history = JSON.parse((await cli.run(['alerts', 'triggered', '--history', '--all', '--json'])).stdout);
    expect(latest.channels.length).toBeGreaterThan(0);
    expect(latest.channels.every((row: { new: boolean }) => row.new)).toBe(true);
    expect(history.total).toBe(before.total + latest.total);
    expect(history.channels.filter((row: { new: boolean }) => row.new)).toEqual(latest.channels);
    const both = await cli.run(['alerts', 'triggered', '--new', '--history']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/--new.*--history|--history.*--new/);
  });

  it('answers alerts outlier-status (the API\'s name) as alerts status; an unknown subcommand with --help is an error', async () => {
    const status = JSON.parse((await cli.run(['alerts', 'status', '--json'])).stdout);
    expect(JSON.parse((await cli.run(['alerts', 'outlier-status', '--json'])).stdout)).toEqual(status);
    for (const args of [['alerts', 'nosuch', '--help'], ['alerts', 'outlier-stats', '--help'], ['alerts', 'nosuch'], ['nosuch', '--help'], ['engine', 'world', 'nosuch', '-h']]) {
      const result = await cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr, args.join(' ')).toMatch(/unknown command/);
    }
    expect((await cli.run(['alerts', 'outlier-stats'])).stderr).toMatch(/Did you mean outlier-status\?/);
  });

  it('deletes an alert only when confirmed', async () => {
    const refused = await cli.run(['alerts', 'delete', '2']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    const deleted = await cli.run(['alerts', 'delete', '2', '--yes']);
    expect(deleted.exitCode).toBe(0);
    expect(deleted.stdout).toBe('');
    expect(deleted.stderr).toMatch(/^Deleted alert 2; \d+ triggered channel record\(s\) removed\.\n$/);
    expect((await cli.run(['alerts', 'list'])).stdout.trim().split('\n')).toHaveLength(1);
  });

  it('ranks, shows and feeds collabs, accepting handles and URLs', async () => {
    const top = await cli.run(['collabs', 'top', '--per-page', '3']);
    expect(top.exitCode).toBe(0);
    expect(rows(top.stdout)).toHaveLength(3);
    expect(rows(top.stdout).map((row) => row[0])).toEqual(['1', '2', '3']);
    const all = JSON.parse((await cli.run(['collabs', 'top', '--all', '--json', '--min-partners', '3'])).stdout);
    expect(all.channels.length).toBe(all.total);
    const handle = all.channels[0].handle as string;
    const byHandle = JSON.parse((await cli.run(['collabs', 'channel', handle, '--json'])).stdout);
    const byUrl = JSON.parse((await cli.run(['collabs', 'channel', `https://www.youtube.com/${handle}`, '--json', '--limit', '1'])).stdout);
    expect(byHandle).toMatchObject({ channel_id: all.channels[0].channel_id, checked: true, total_partners: all.channels[0].partners });
    expect(byUrl).toMatchObject({ channel_id: byHandle.channel_id, total_videos: byHandle.total_videos });
    expect(byUrl.videos).toHaveLength(1);
    const feed = await cli.run(['collabs', 'feed', '--channels', `${handle},${all.channels[1].channel_id}`, '--days', '90', '--json']);
    expect(feed.exitCode).toBe(0);
    for (const video of JSON.parse(feed.stdout).videos) {
      const involved = [video.host, ...video.collaborators].map((channel: { channel_id: string }) => channel.channel_id);
      expect(involved.includes(byHandle.channel_id) || involved.includes(all.channels[1].channel_id)).toBe(true);
    }
    expect((await cli.run(['collabs', 'feed', '--days', '91'])).exitCode).toBe(2);
    expect((await cli.run(['collabs', 'channel', '@no-such-channel-here'])).exitCode).toBe(6);
  });
});
