/** `tubekit jobs list` on the built binary: a lost job id found again, as a table, TSV or JSON. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, stopDetachedWorkers, type CliSandbox } from '../support/cli.js';

describe('tubekit jobs list (built binary)', () => {
  let cli: CliSandbox;
  let generation: string;
  let channel: number;
  beforeAll(async () => {
    cli = cliSandbox();
    const handle = (await cli.run(['engine', 'sample', 'channels', '--limit', '1'])).stdout.split('\t')[1]!;
    channel = JSON.parse((await cli.run(['--json', 'process-channel', handle, '--type', 'shorts'])).stdout).job_id;
    generation = (await cli.run(['generate', 'Where did that job go?', '--voice', 'espeak-en-us'])).stdout.trim();
  });
  afterAll(() => {
    stopDetachedWorkers(cli.dataDir);
    cli.cleanup();
  });

  it('prints recent jobs of every kind, newest first, one tab-separated row each when piped', async () => {
    const result = await cli.run(['jobs', 'list']);
    expect(result.exitCode).toBe(0);
    const rows = result.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows.map((row) => [row[0], row[1]])).toEqual([[generation, 'generation'], [String(channel), 'channel']]);
    expect(rows[0]![5]).toBe('Where did that job go?');
  });

  it('filters by --kind and --state, keeps to --limit, and --json is the API body', async () => {
    const body = JSON.parse((await cli.run(['jobs', 'list', '--kind', 'channel', '--json'])).stdout);
    expect(body).toMatchObject({ success: true, count: 1, jobs: [{ job_id: channel, kind: 'channel', type: 'shorts' }] });
    expect((await cli.run(['jobs', 'list', '--limit', '1'])).stdout.trim().split('\n')).toHaveLength(1);
    expect((await cli.run(['jobs', 'list', '--state', 'failed'])).stdout).toBe('');
  });

  it('refuses an unknown --state or --kind and a --limit out of range with exit 2', async () => {
    for (const args of [['--state', 'done'], ['--kind', 'upload'], ['--limit', '0'], ['--limit', '101']]) {
      const result = await cli.run(['jobs', 'list', ...args]);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  });
});
