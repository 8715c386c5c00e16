/**
 * `tubekit terminated`, `tubekit analyze`, `tubekit job` (analysis jobs) and `engine seed
 * --terminated` on the built binary: tables piped as TSV, --json bodies, --all as one body, -o files,
 * and usage errors that exit 2 before any call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { cliSandbox, stopDetachedWorkers, type CliSandbox } from '../support/cli.js';

/** A base URL nobody listens on: a command that got as far as calling would exit 9, not 2. */
const NOWHERE = ['--base-url', 'http://127.0.0.1:9'];

let cli: CliSandbox;
let engine: Engine;
let videoUrl: string;

beforeAll(async () => {
  cli = cliSandbox();
  engine = Engine.open({ dataDir: cli.dataDir, jobRunner: { mode: 'none' } });
  (await engine.defaultKey());
  const world = await engine.reseedWorld({ seed: 1, channels: 200, terminated: 3000 });
  setWorkSetting(engine.settings, { preset: 'instant' });
  videoUrl = world.sampleVideos(1)[0]!.url;
});

afterAll(() => {
  engine.close();
  stopDetachedWorkers(cli.dataDir);
  cli.cleanup();
});

const rowsOf = (stdout: string) => stdout.split('\n').filter(Boolean).map((line) => line.split('\t'));

describe('tubekit terminated (built binary)', () => {
  it('prints tab-separated rows when piped, and the page and total on stderr', async () => {
    const { stdout, stderr, exitCode } = await cli.run(['terminated', 'gaming,', 'music']);
    expect(exitCode).toBe(0);
    const rows = rowsOf(stdout);
    expect(rows.length).toBe(20);
    for (const row of rows) {
      expect(row).toHaveLength(10);
      expect(row[0]).toMatch(/^UC[\w-]{22}$/);
      expect(row[6]).toMatch(/^(yes|no)$/);
    }
    expect(stderr).toMatch(/^Page 1 of \d+: [\d,]+ matching channels\.\n$/);
  });

  it('passes filters, sort and page size, and prints the API body with --json', async () => {
    const { stdout, exitCode } = await cli.run(['terminated', 'gaming, music', '--min-subs', '5000', '--monetized', 'yes', '--languages', 'en', '--sort', 'subs_desc', '--per-page', '5', '--json']);
    expect(exitCode).toBe(0);
    const body = JSON.parse(stdout);
    expect(body).toMatchObject({ success: true, page: 1, per_page: 5 });
    expect(body.channels).toHaveLength(5);
    const subs = body.channels.map((channel: { subscriber_count: number }) => channel.subscriber_count);
    expect(subs).toEqual([...subs].sort((a: number, b: number) => b - a));
    for (const channel of body.channels) expect(channel).toMatchObject({ monetized: true, primary_language: 'en', subscriber_count: expect.any(Number) });
    expect(Math.min(...subs)).toBeGreaterThanOrEqual(5000);
  });

  it('walks every page with --all: one body holding every channel with --json (as collabs and alerts), rows without', async () => {
    const total = JSON.parse((await cli.run(['terminated', 'cooking', '--json'])).stdout).total as number;
    expect(total).toBeGreaterThan(0);
    const merged = await cli.run(['terminated', 'cooking', '--all', '--json']);
    const body = JSON.parse(merged.stdout);
    expect(body).toMatchObject({ success: true, total });
    expect(body).not.toHaveProperty('page');
    expect(body).not.toHaveProperty('total_pages');
    expect(new Set(body.channels.map((channel: { channel_id: string }) => channel.channel_id)).size).toBe(total);
    const tsv = await cli.run(['terminated', 'cooking', '--all', '--per-page', '7']);
    expect(rowsOf(tsv.stdout)).toHaveLength(total);
  });

  it('applies --jq to --all as to one page; an invalid expression exits 2 and prints nothing', async () => {
    const total = JSON.parse((await cli.run(['terminated', 'cooking', '--json'])).stdout).total as number;
    const ids = await cli.run(['terminated', 'cooking', '--all', '--jq', '.channels[].channel_id']);
    expect(ids.exitCode).toBe(0);
    const lines = ids.stdout.trim().split('\n');
    expect(lines).toHaveLength(total);
    for (const line of lines) expect(line).toMatch(/^UC[\w-]{22}$/);
    const invalid = await cli.run(['terminated', 'cooking', '--all', '--jq', '.channels[']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stdout).toBe('');
    expect(invalid.stderr).toMatch(/not valid jq/);
  });

  it('shows a terminated channel\'s record, and says other commands\' id was terminated (exit 6, not a usage error)', async () => {
    const id = (await cli.run(['terminated', 'cooking', '--per-page', '1', '--jq', '.channels[0].channel_id'])).stdout.trim();
    const record = await cli.run(['terminated', 'show', id]);
    expect(record.exitCode).toBe(0);
    expect(record.stdout).toMatch(new RegExp(`^channel\t${id}\nname\t.+\nterminated\t\\d{4}-\\d\\d-\\d\\d \\(\\d+ days? ago\\)\n`));
    expect(JSON.parse((await cli.run(['terminated', 'show', id, '--json'])).stdout).channel.channel_id).toBe(id);
    for (const args of [['resolve', id], ['process-channel', id, '--type', 'shorts'], ['cms', id], ['monetized', id], ['collabs', 'channel', id]]) {
      const result = await cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(6);
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`Channel ${id} \\(".+"\\) was terminated on \\d{4}-\\d\\d-\\d\\d`));
    }
    expect((await cli.run(['terminated', 'show', 'UCnjgVTsmU7Ql4Vzmi0HEN8Q'])).exitCode).toBe(6);
    // The keyword "show" is searched when written as a keyword list.
    expect((await cli.run(['terminated', 'show,', '--json'])).exitCode).toBe(0);
  });

  it('refuses bad options with exit 2 before any call', async () => {
    for (const args of [
      ['terminated', 'cooking', '--page', '21'],
      ['terminated', 'cooking', '--per-page', '51'],
      ['terminated', 'cooking', '--min-subs', 'lots'],
      ['terminated', 'cooking', '--all', '--page', '2'],
      ['terminated', 'cooking', '--sort', 'likes_desc'],
      ['terminated', 'cooking', '--monetized', 'maybe'],
      ['terminated', ','],
    ]) {
      const { exitCode, stderr } = await cli.run([...NOWHERE, ...args]);
      expect(exitCode, args.join(' ')).toBe(2);
      expect(stderr).toMatch(/error:/);
    }
    // Checked by the service: still exit 2.
    expect((await cli.run(['terminated', 'cooking', '--min-subs', '9', '--max-subs', '1'])).exitCode).toBe(2);
  });

  it('engine seed --terminated sets the number of terminated channels', async () => {
    const other = cliSandbox();
    try {
      const { stdout, exitCode } = await other.run(['engine', 'seed', '--channels', '50', '--terminated', '120', '--json']);
      expect(exitCode).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ channel_count: 50, terminated_count: 120 });
      expect((await other.run(['engine', 'seed', '--terminated', '-3'])).exitCode).toBe(2);
    } finally {
      other.cleanup();
    }
  });
});

describe('tubekit analyze (built binary)', () => {
  it('queues and returns, and tubekit job --watch then prints the analysis text', async () => {
    const submitted = await cli.run(['analyze', videoUrl, '--prompt', 'Summarize this video']);
    expect(submitted.exitCode).toBe(0);
    const record = Object.fromEntries(rowsOf(submitted.stdout).map(([key, value]) => [key, value]));
    expect(record).toMatchObject({ status: 'pending', cached: 'false', credits_charged: '0' });
    expect(record.job_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(submitted.stderr).toContain(`tubekit job ${record.job_id} --watch`);
    const watched = await cli.run(['job', record.job_id!, '--watch']);
    expect(watched.exitCode).toBe(0);
    expect(watched.stdout).toMatch(/^\[Sample world\] Analysis of “.+”/);
  });

  it('--watch --json prints the finished job; a JSON prompt gives JSON analysis text', async () => {
    const { stdout, exitCode } = await cli.run(['analyze', videoUrl, '--prompt', 'Return JSON with keys title and views', '--watch', '--json']);
    expect(exitCode).toBe(0);
    const job = JSON.parse(stdout);
    expect(job).toMatchObject({ type: 'analysis', status: 'completed', cached: true });
    expect(Object.keys(JSON.parse(job.analysis_text))).toEqual(['title', 'views', '_source']);
  });

  it('-o saves the text (analyze, and job for an analysis job); --prompt-file - reads stdin', async () => {
    const target = path.join(cli.dataDir, 'answer.txt');
    const saved = await cli.run(['analyze', videoUrl, '--prompt-file', '-', '-o', target], { input: 'Give me 3 key moments' });
    expect(saved.exitCode).toBe(0);
    expect(saved.stdout).toBe('');
    const text = fs.readFileSync(target, 'utf8');
    expect(text.split('\n').filter((line) => /^\d+:\d\d — /.test(line))).toHaveLength(3);

    const id = JSON.parse((await cli.run(['analyze', videoUrl, '--prompt', 'List the topics', '--json'])).stdout).job_id as string;
    const again = path.join(cli.dataDir, 'topics.txt');
    expect((await cli.run(['job', id, '--watch', '-o', again])).exitCode).toBe(0);
    expect(fs.readFileSync(again, 'utf8')).toMatch(/^\[Sample world\][\s\S]*\n- /);
  });

  it('never writes over an existing -o file without --force (analyze, job), refusing before any call', async () => {
    const taken = path.join(cli.dataDir, 'taken.txt');
    fs.writeFileSync(taken, 'mine');
    for (const args of [
      ['analyze', videoUrl, '--prompt', 'Hi', '-o', taken],
      ['job', 'ana_whatever', '--watch', '-o', taken],
    ]) {
      const refused = await cli.run([...NOWHERE, ...args]);
      expect(refused.exitCode, args.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/taken\.txt already exists; tubekit does not write over a file without --force[\s\S]*Pass --force/);
    }
    expect(fs.readFileSync(taken, 'utf8')).toBe('mine');
    const forced = await cli.run(['analyze', videoUrl, '--prompt', 'List the topics', '-o', taken, '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(fs.readFileSync(taken, 'utf8')).toMatch(/^\[Sample world\]/);
  });

  it('refuses bad links and prompts with exit 2 before any call', async () => {
    for (const args of [
      ['analyze', 'https://vimeo.com/1234', '--prompt', 'Hi'],
      ['analyze', 'not a link', '--prompt', 'Hi'],
      ['analyze', videoUrl],
      ['analyze', videoUrl, '--prompt', 'Hi', '--prompt-file', 'x.txt'],
      ['analyze', videoUrl, '--prompt', 'x'.repeat(4001)],
      ['analyze', videoUrl, '--prompt', '   '],
      ['analyze', videoUrl, '--prompt', 'Hi', '--media-resolution', 'high'],
      ['analyze', videoUrl, '--prompt', 'Hi', '--timeout', '5'],
    ]) {
      const { exitCode, stderr } = await cli.run([...NOWHERE, ...args]);
      expect(exitCode, args.join(' ').slice(0, 60)).toBe(2);
      expect(stderr).toMatch(/error:/);
    }
    expect((await cli.run([...NOWHERE, 'analyze', 'https://vimeo.com/1', '--prompt', 'Hi'])).stderr).toContain('links of vimeo.com are not supported');
  });
});
