import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, startServe, type CliSandbox } from '../support/cli.js';

describe('tubekit CLI (built binary): workspace', () => {
  let cli: CliSandbox;
  let channels: string[][];
  beforeAll(async () => {
    cli = cliSandbox();
    const sample = await cli.run(['engine', 'sample', 'channels', '--limit', '5']);
    expect(sample.exitCode).toBe(0);
    channels = sample.stdout.split('\n').map((line) => line.split('\t'));
  });
  afterAll(() => cli.cleanup());

  it('prints its version', async () => {
    const result = await cli.run(['--version']);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('prints exactly the API body with --json, before or after the subcommand', async () => {
    const before = await cli.run(['--json', 'folders', 'list']);
    const after = await cli.run(['folders', 'list', '--json']);
    expect(JSON.parse(before.stdout)).toEqual({ success: true, count: 0, folders: [] });
    expect(after.stdout).toBe(before.stdout);
    expect(before.stdout).not.toContain('\n  '); // compact when piped
  });

  it('prints piped tables as tab-separated rows without a header', async () => {
    expect((await cli.run(['folders', 'create', 'Cooking'])).exitCode).toBe(0);
    const list = await cli.run(['folders', 'list']);
    const rows = list.stdout.trim().split('\n');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.split('\t').slice(0, 3)).toEqual(['1', 'Cooking', '0']);
  });

  it('saves channels given as handles, ids and stdin, and lists them', async () => {
    const [first, second, third] = channels;
    const add = await cli.run(['saved', 'add', first![1]!, '-', '--folder', '1', '--json'], { input: `${second![0]}\n${third![0]}\n` });
    expect(add.exitCode).toBe(0);
    expect(JSON.parse(add.stdout)).toMatchObject({ saved: 3, channel_count: 3 });
    const listed = await cli.run(['folders', 'channels', '1']);
    expect(listed.stdout.trim().split('\n').map((row) => row.split('\t')[0]).sort()).toEqual([first![0], second![0], third![0]].sort());
  });

  it('resolves inputs from stdin, one result line each', async () => {
    const result = await cli.run(['resolve', '-'], { input: `${channels[0]![1]}\nhttps://www.youtube.com/${channels[1]![1]}\n` });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().split('\n').map((line) => line.split('\t')[0])).toEqual([channels[0]![0], channels[1]![0]]);
  });

  it('says in its last column whether a resolved channel is known, and invents no title for an unknown id', async () => {
    const result = await cli.run(['resolve', channels[0]![0]!, 'UCzzzzzzzzzzzzzzzzzzzzzz']);
    expect(result.exitCode).toBe(0);
    const [known, unknown] = result.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(known!.at(-1)).toBe('yes');
    expect(unknown).toEqual(['UCzzzzzzzzzzzzzzzzzzzzzz', '', '', 'UCzzzzzzzzzzzzzzzzzzzzzz', 'no']);
  });

  it('exits 7 on a name collision and, with --json, writes one JSON error line to stderr and nothing to stdout', async () => {
    const result = await cli.run(['--json', 'folders', 'create', 'cooking']);
    expect(result.exitCode).toBe(7);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({ error: expect.objectContaining({ status: 409, code: 'conflict' }) });
  });

  it('with --json, writes exactly one JSON error line for usage errors at any depth', async () => {
    for (const args of [['--json', 'folders', 'nope'], ['folders', 'create', '--json'], ['--json', 'bogus'], ['--json', 'process-channel', 'x', '--type', 'auto']]) {
      const result = await cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      const lines = result.stderr.trim().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(JSON.parse(lines[0]!).error).toMatchObject({ status: null, code: 'usage', message: expect.any(String) });
    }
  });

  it('exits 2 when a subcommand is missing, showing the help on stderr only', async () => {
    const bare = await cli.run(['folders']);
    expect(bare.exitCode).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toMatch(/Usage: tubekit folders/);
    const json = await cli.run(['--json', 'engine', 'keys']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage', message: 'A subcommand is missing.' });
    expect((await cli.run(['help'])).exitCode).toBe(0);
  });

  it('reports each input resolve could not resolve on its own line, as JSON with --json', async () => {
    const result = await cli.run(['--json', 'resolve', channels[0]![1]!, '@no-such-channel-here']);
    expect(result.exitCode).toBe(6);
    // Several inputs: one JSON array of the bodies that resolved (parseable as a whole).
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ channel_id: channels[0]![0] })]);
    expect(JSON.parse(result.stderr).error).toMatchObject({ status: 404, code: 'not_found', input: '@no-such-channel-here' });
  });

  it('exits 2 on usage errors before any call, 6 on not found', async () => {
    expect((await cli.run(['folders', 'channels', 'abc'])).exitCode).toBe(2);
    expect((await cli.run(['folders', 'nope'])).exitCode).toBe(2);
    expect((await cli.run(['saved', 'add', 'UCxxxxxxxxxxxxxxxxxxxxxx'])).exitCode).toBe(2);
    // The folder ids are checked before the channel is looked up (which would answer 404).
    expect((await cli.run(['saved', 'move', '@no-such-channel-here', '--from', 'one', '--to', '2'])).exitCode).toBe(2);
    const missing = await cli.run(['folders', 'channels', '999']);
    expect(missing.exitCode).toBe(6);
    expect(missing.stderr).toMatch(/Folder 999 not found/);
  });

  it('refuses to delete a folder without confirmation when it cannot prompt', async () => {
    await cli.run(['folders', 'create', 'Temp']);
    const refused = await cli.run(['folders', 'delete', '2']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    const done = await cli.run(['folders', 'delete', '2', '--yes', '--json']);
    expect(JSON.parse(done.stdout)).toEqual({ success: true, unsaved_channels: 0 });
  });

  it('lets several processes start on one new data dir at once, as one default user', async () => {
    const fresh = cliSandbox();
    try {
      const names = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'];
      const results = await Promise.all(names.map((name) => fresh.run(['folders', 'create', name])));
      expect(results.map((result) => result.exitCode)).toEqual(names.map(() => 0));
      const listed = await fresh.run(['folders', 'list', '--json']);
      expect(JSON.parse(listed.stdout).folders.map((folder: { name: string }) => folder.name).sort()).toEqual(names);
    } finally {
      fresh.cleanup();
    }
  });

  it('names a data dir it cannot use and says how to pick another', async () => {
    const file = path.join(cli.configDir, '..', 'a-file');
    fs.writeFileSync(file, 'not a directory');
    const result = await cli.run(['--data-dir', path.join(file, 'data'), 'folders', 'list']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/Cannot use the data dir .*a-file\/data/);
    expect(result.stderr).toMatch(/--data-dir <dir> or set TUBEKIT_DATA_DIR/);
    expect(result.stderr).not.toMatch(/--verbose/);
  });

  it('never takes a key as a flag', async () => {
    const result = await cli.run(['--api-key', 'tk_x', 'folders', 'list']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/never accepted as flags/);
  });

  it('prints a new engine key as JSON', async () => {
    const result = await cli.run(['engine', 'keys', 'create', '--plan', 'starter', '--scope', 'generations', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({ key: expect.stringMatching(/^tk_/), user_id: expect.any(Number), plan: 'starter', scopes: ['generations'] });
  });

  it('leads help with examples and documents exit codes', async () => {
    const help = await cli.run(['--help']);
    expect(help.stdout.indexOf('Examples:')).toBeLessThan(help.stdout.indexOf('Usage:'));
    expect(help.stdout).toMatch(/Exit codes:[\s\S]*10 {2}timed out/);
  });
});

describe('tubekit CLI (built binary): configuration and remote use', () => {
  let cli: CliSandbox;
  let server: Awaited<ReturnType<typeof startServe>>;
  let key: string;
  beforeAll(async () => {
    cli = cliSandbox();
    key = JSON.parse((await cli.run(['engine', 'keys', 'create', '--plan', 'professional', '--json'])).stdout).key;
    server = await startServe(cli);
  });
  afterAll(async () => {
    await server.stop();
    cli.cleanup();
  });

  it('writes the config file with mode 0600 and refuses to store a key through config', async () => {
    expect((await cli.run(['config', 'set', 'base_url', server.url])).exitCode).toBe(0);
    const file = path.join(cli.configDir, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await cli.run(['config', 'get', 'base_url'])).stdout.trim()).toBe(server.url);
    expect((await cli.run(['config', 'set', 'api_key', 'x'])).exitCode).toBe(2);
    expect((await cli.run(['config', 'set', 'base_url', 'ftp://x'])).exitCode).toBe(2);
    // A relative data dir is stored absolute, so it does not move with the working directory.
    expect((await cli.run(['--profile', 'other', 'config', 'set', 'data_dir', 'engine-data'])).exitCode).toBe(0);
    expect((await cli.run(['--profile', 'other', 'config', 'get', 'data_dir'])).stdout.trim()).toBe(path.resolve('engine-data'));
  });

  it('logs in from stdin, never prints the key, and talks to serve with it', async () => {
    expect((await cli.run(['auth', 'login'], { input: `${key}\n` })).exitCode).toBe(0);
    const status = await cli.run(['auth', 'status', '--json']);
    expect(status.stdout).not.toContain(key);
    expect(JSON.parse(status.stdout)).toMatchObject({ mode: 'remote', key_source: 'profile', authenticated: true });
    const created = await cli.run(['folders', 'create', 'Remote folder', '--json']);
    expect(JSON.parse(created.stdout).folder.name).toBe('Remote folder');
    expect((await cli.run(['--local', 'folders', 'list', '--json'])).stdout).not.toContain('Remote folder');
  });

  it('traces requests with --verbose on stderr, with the key redacted', async () => {
    const result = await cli.run(['--verbose', 'folders', 'list']);
    expect(result.stderr).toMatch(/GET .*\/api\/folders/);
    expect(result.stderr).not.toContain(key);
    expect(result.stderr).not.toContain(key.slice(6));
  });

  it('auth status exits like any command: 4 for a refused key, 9 for an unreachable service', async () => {
    const refused = await cli.run(['auth', 'status', '--json'], { env: { TUBEKIT_API_KEY: 'tk_wrongwrongwrongwrongwrong' } });
    expect(refused.exitCode).toBe(4);
    expect(JSON.parse(refused.stdout)).toMatchObject({ authenticated: false });
    const unreachable = await cli.run(['--base-url', 'http://127.0.0.1:9', 'auth', 'status']);
    expect(unreachable.exitCode).toBe(9);
    expect(unreachable.stdout).toMatch(/authenticated\tfalse/);
  });

  it('says which port is taken when serve cannot listen', async () => {
    const port = new URL(server.url).port;
    const result = await cli.run(['serve', '--port', port]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`Port ${port} on 127.0.0.1 is already in use`));
    expect(result.stderr).toMatch(/--port 0/);
    expect(result.stderr).not.toMatch(/EADDRINUSE|--verbose/);
  });

  it('exits 4 with a hint for a bad key, and 9 when the service is unreachable', async () => {
    const denied = await cli.run(['folders', 'list'], { env: { TUBEKIT_API_KEY: 'tk_wrongwrongwrongwrongwrong' } });
    expect(denied.exitCode).toBe(4);
    expect(denied.stderr).toMatch(/The key came from: environment\. .*tubekit auth login/);
    const local = await cli.run(['--local', 'folders', 'list'], { env: { TUBEKIT_API_KEY: 'tk_wrongwrongwrongwrongwrong' } });
    expect(local.exitCode).toBe(4);
    expect(local.stderr).toMatch(/unset it to act as the default local user/);
    const unreachable = await cli.run(['--base-url', 'http://127.0.0.1:9', 'folders', 'list']);
    expect(unreachable.exitCode).toBe(9);
    expect(unreachable.stderr).toMatch(/Could not reach/);
  });
});
