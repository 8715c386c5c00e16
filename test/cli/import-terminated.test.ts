/** `tubekit engine import terminated <file|->`: the built binary loading records into a live data dir. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli.js';

let cli: CliSandbox;
let file: string;
beforeEach(() => {
  cli = cliSandbox();
  file = path.join(cli.dataDir, '..', 'terminated.jsonl');
});
afterEach(() => cli.cleanup());

const id = (n: number) => `UC${String(n).padStart(22, 'c')}`;
const line = (n: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ channel_id: id(n), channel_title: `Sourdough lab ${n}`, terminated_date: '2026-10-0' + ((n % 9) + 1), subscriber_count: 1000 * n, ...extra });

describe('engine import terminated', () => {
  it('loads a good file into a live data dir, which terminated search then finds; a second load updates', async () => {
    expect((await cli.run(['engine', 'platform', 'live'])).exitCode).toBe(0);
    fs.writeFileSync(file, `${[1, 2, 3].map((n) => line(n)).join('\n')}\n`);
    const loaded = await cli.run(['engine', 'import', 'terminated', file]);
    expect(loaded).toMatchObject({ exitCode: 0, stdout: 'loaded\t3\nupdated\t0\nrefused\t0\n' });
    expect(loaded.stderr).toContain('3 channels loaded, 0 updated.');
    const found = JSON.parse((await cli.run(['terminated', 'sourdough', '--json'])).stdout);
    expect(found.total).toBe(3);
    expect(found.channels.map((channel: { channel_id: string }) => channel.channel_id)).toEqual([id(3), id(2), id(1)]);
    expect(found.channels[0]).toMatchObject({ subscriber_count: 3000, view_count: null, terminated_date: '2026-10-04' });
    const again = await cli.run(['engine', 'import', 'terminated', file, '--json']);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ dry_run: false, lines: 3, loaded: 0, updated: 3, refused: 0, errors: [] });
    // The data dir now holds live data: it stays live.
    const back = await cli.run(['engine', 'platform', 'sample']);
    expect(back.exitCode).toBe(7);
    expect(back.stderr).toContain('holds data of the live platform');
    // Nor does a sample world get generated into it.
    const seed = await cli.run(['engine', 'seed', '--channels', '10', '--terminated', '5']);
    expect(seed.exitCode).toBe(7);
    expect(seed.stderr).toContain('uses the live platform: a sample world cannot be generated in it');
    expect(JSON.parse((await cli.run(['terminated', 'sourdough', '--json'])).stdout).total).toBe(3);
  });

  it('reports each bad line with its number and what is wrong, loads the others, and exits 2', async () => {
    await cli.run(['engine', 'platform', 'live']);
    fs.writeFileSync(file, [line(1), '{"channel_id": "UCnope"', line(2, { subscribers: 4 }), line(3), line(4, { terminated_date: '2099-01-01' })].join('\n'));
    const result = await cli.run(['engine', 'import', 'terminated', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('loaded\t2\nupdated\t0\nrefused\t3\n');
    expect(result.stderr).toContain('line 2: not JSON');
    expect(result.stderr).toContain('line 3: not a field of a terminated channel: subscribers');
    expect(result.stderr).toContain('line 5: terminated_date: is in the future');
    expect(result.stderr).toContain('3 lines refused (above), nothing of them loaded.');
    const found = JSON.parse((await cli.run(['terminated', 'sourdough', '--json'])).stdout);
    expect(found.channels.map((channel: { channel_id: string }) => channel.channel_id).sort()).toEqual([id(1), id(3)]);
    const json = await cli.run(['engine', 'import', 'terminated', file, '--json']);
    expect(json.exitCode).toBe(2);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ loaded: 0, updated: 2, refused: 3, errors: [{ line: 2 }, { line: 3 }, { line: 5 }] });
  });

  it('changes nothing with --dry-run, and reads stdin with -', async () => {
    await cli.run(['engine', 'platform', 'live']);
    const input = `${[1, 2, 2].map((n) => line(n)).join('\n')}\n`;
    const dry = await cli.run(['engine', 'import', 'terminated', '-', '--dry-run', '--json'], { input });
    expect(dry.exitCode).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({ dry_run: true, lines: 3, loaded: 2, updated: 1, refused: 0, errors: [] });
    expect(JSON.parse((await cli.run(['terminated', 'sourdough', '--json'])).stdout).total).toBe(0);
    const loaded = await cli.run(['engine', 'import', 'terminated', '-'], { input });
    expect(loaded).toMatchObject({ exitCode: 0, stdout: 'loaded\t2\nupdated\t1\nrefused\t0\n' });
    expect(JSON.parse((await cli.run(['terminated', 'sourdough', '--json'])).stdout).total).toBe(2);
  });

  it('refuses a sample data dir, naming the platform, and a file that is not there', async () => {
    fs.writeFileSync(file, `${line(1)}\n`);
    const sample = await cli.run(['engine', 'import', 'terminated', file]);
    expect(sample.exitCode).toBe(2);
    expect(sample.stderr).toContain('This data dir uses the sample platform');
    expect(sample.stderr).toContain('engine platform live');
    const missing = await cli.run(['engine', 'import', 'terminated', path.join(cli.dataDir, 'nope.jsonl')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no such file or directory');
  });
});
