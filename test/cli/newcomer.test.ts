/**
 * The command line as a newcomer meets it (issue 12): errors that say what happened before what
 * to do, inputs echoed at a readable length, one JSON value per run, profiles and keys checked,
 * engine commands that refuse remote flags.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalImports, staticallyReached } from '../support/bundle.js';
import { cliSandbox, type CliSandbox } from '../support/cli.js';
import { hasScript, runOnTerminal } from '../support/terminal.js';

describe('tubekit as a newcomer meets it', () => {
  let cli: CliSandbox;
  let channels: string[][];
  beforeAll(async () => {
    cli = cliSandbox();
    channels = (await cli.run(['engine', 'sample', 'channels', '--limit', '3'])).stdout.trim().split('\n').map((line) => line.split('\t'));
  });
  afterAll(() => cli.cleanup());
  const config = () => (fs.existsSync(path.join(cli.configDir, 'config.json')) ? JSON.parse(fs.readFileSync(path.join(cli.configDir, 'config.json'), 'utf8')) : undefined);

  it('prints the error first and what to do after it', async () => {
    const result = await cli.run(['folders', 'delete', '1']);
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^error: Delete folder 1 .* needs confirmation\.$/);
    expect(lines[1]).toMatch(/--yes/);
  });

  it('cuts a huge echoed input to a readable length', async () => {
    const handle = `@${'a'.repeat(100_000)}`;
    for (const args of [['resolve', handle], ['--json', 'resolve', handle], ['saved', 'add', handle, '--folder', '1'], ['process-channel', 'x', '--type', handle]]) {
      const result = await cli.run(args);
      expect(result.exitCode, args[0]).not.toBe(0);
      expect(result.stderr.length, args[0]).toBeLessThan(600);
      if (args[0] === 'resolve' || args[1] === 'resolve') expect(result.stderr, args[0]).toMatch(/characters\)/);
    }
  });

  it('prints one JSON value for several resolve inputs, and the body for one', async () => {
    const several = await cli.run(['--json', 'resolve', channels[0]![1]!, channels[1]![1]!]);
    expect(several.exitCode).toBe(0);
    expect(JSON.parse(several.stdout).map((body: { channel_id: string }) => body.channel_id)).toEqual([channels[0]![0], channels[1]![0]]);
    const piped = await cli.run(['--json', 'resolve', '-'], { input: `${channels[0]![1]}\n` });
    expect(JSON.parse(piped.stdout)).toHaveLength(1);
    const one = await cli.run(['--json', 'resolve', channels[0]![1]!]);
    expect(JSON.parse(one.stdout)).toMatchObject({ success: true, channel_id: channels[0]![0] });
  });

  it('prints resolve with one column order piped and on a terminal', async () => {
    const piped = await cli.run(['resolve', channels[0]![1]!]);
    expect(piped.stdout).toBe(`${channels[0]![0]}\t${channels[0]![1]}\t${channels[0]![2]}\t${channels[0]![1]}\tyes\n`);
    if (!hasScript) return;
    const screen = (await runOnTerminal(cli, ['resolve', channels[0]![1]!])).screen;
    expect(screen).toMatch(/CHANNEL\s+HANDLE\s+TITLE\s+INPUT\s+KNOWN/);
  });

  it('joins list fields with commas when piped instead of printing JSON brackets', async () => {
    const sample = path.join(cli.dataDir, 'tags.wav');
    fs.mkdirSync(cli.dataDir, { recursive: true });
    const { wavSample } = await import('../support/audio-fixtures.js');
    fs.writeFileSync(sample, wavSample(3));
    const none = await cli.run(['clone', sample, '--name', 'Plain']);
    expect(none.stdout).toMatch(/^tags\t$/m);
    const two = await cli.run(['clone', sample, '--name', 'Tagged', '--tags', 'calm,deep']);
    expect(two.stdout).toMatch(/^tags\tcalm,deep$/m);
  });

  it('tells on stderr what a clone could not learn: no ffmpeg for a compressed sample, a very short sample', async () => {
    const { mp3Sample, wavSample } = await import('../support/audio-fixtures.js');
    const mp3 = path.join(cli.dataDir, 'sample.mp3');
    fs.writeFileSync(mp3, await mp3Sample(4));
    const noFfmpeg = await cli.run(['--json', 'clone', mp3, '--name', 'Compressed'], { env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    expect(noFfmpeg.exitCode).toBe(0);
    expect(noFfmpeg.stderr).toMatch(/^warning: The pitch of the sample was not measured: decoding MP3 needs ffmpeg/m);
    expect(JSON.parse(noFfmpeg.stdout).warnings).toHaveLength(1);
    const short = path.join(cli.dataDir, 'short.wav');
    fs.writeFileSync(short, wavSample(0.5));
    const brief = await cli.run(['clone', short, '--name', 'Brief']);
    expect(brief.exitCode).toBe(0);
    expect(brief.stderr).toMatch(/warning: The sample is only 0\.5 s long, too short to measure a steady pitch/);
  });

  it('filters the JSON output of any command with --jq (jq itself), strings raw', async () => {
    await cli.run(['folders', 'create', 'Jq one']);
    const names = await cli.run(['folders', 'list', '--jq', '.folders[].name']);
    expect(names.exitCode).toBe(0);
    expect(names.stdout).toBe('Jq one\n');
    const objects = await cli.run(['--jq', '.[] | {channel_id}', 'resolve', channels[0]![1]!, channels[1]![1]!]);
    expect(objects.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([{ channel_id: channels[0]![0] }, { channel_id: channels[1]![0] }]);
    const invalid = await cli.run(['folders', 'list', '--jq', '.folders[']);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stdout).toBe('');
    expect(JSON.parse(invalid.stderr).error.message).toMatch(/^--jq: the expression is not valid jq: syntax error/);
    const failing = await cli.run(['folders', 'list', '--jq', 'error("no")']);
    expect(failing.exitCode).toBe(1);
    expect(JSON.parse(failing.stderr).error.message).toBe('--jq: no');
  });

  it('runs the system jq when it is on the PATH, and the embedded jq with the same output when it is not', async () => {
    await cli.run(['folders', 'create', 'Jq engines']);
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-jq-path-'));
    try {
      fs.symlinkSync(process.execPath, path.join(bin, 'node'));
      const withoutJq = await cli.run(['folders', 'list', '--jq', '.folders[].name'], { env: { PATH: bin } });
      expect(withoutJq.exitCode, withoutJq.stderr).toBe(0);
      const invalid = await cli.run(['folders', 'list', '--jq', '.folders['], { env: { PATH: bin } });
      expect(invalid.exitCode).toBe(2);
      expect(JSON.parse(invalid.stderr).error.message).toMatch(/^--jq: the expression is not valid jq: syntax error/);
      // A `jq` that notes how it was run and answers what jq answers.
      fs.writeFileSync(path.join(bin, 'answer'), withoutJq.stdout);
      fs.writeFileSync(path.join(bin, 'jq'), `#!/bin/sh\necho "$@" > '${bin}/ran'\ncat > /dev/null\ncat '${bin}/answer'\n`, { mode: 0o755 });
      const withJq = await cli.run(['folders', 'list', '--jq', '.folders[].name'], { env: { PATH: `${bin}:/bin:/usr/bin` } });
      expect(withJq.exitCode, withJq.stderr).toBe(0);
      expect(fs.readFileSync(path.join(bin, 'ran'), 'utf8')).toBe('-r -c .folders[].name\n');
      expect(withJq.stdout).toBe(withoutJq.stdout);
      expect(withJq.stdout).toMatch(/^Jq engines$/m);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });

  it('loads jq only when --jq is used (it is not part of the start-up bundle)', () => {
    const jqImports = (module: string) => externalImports(module).filter((entry) => entry.path === 'jq-wasm');
    // Every module start-up runs: main.js and what it imports statically, transitively.
    const reached = staticallyReached('dist/src/cli/main.js');
    expect(reached.size).toBeGreaterThan(1);
    for (const module of reached) expect(jqImports(module), module).toEqual([]);
    // The build hands import() of a package to the launcher (scripts/bundle-cli.mjs).
    expect(fs.readFileSync('dist/cli/tubekit.cjs', 'latin1')).toContain('importPackage("jq-wasm")');
  });

  it('treats an unknown profile at logout as an error and leaves the config untouched', async () => {
    const before = config();
    const result = await cli.run(['auth', 'logout', '--profile', 'nosuch']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/no profile "nosuch"/);
    expect(config()).toEqual(before);
    const quiet = await cli.run(['auth', 'logout']);
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toMatch(/no key stored/);
    expect(config()).toEqual(before);
  });

  it('turns raw system errors into a sentence about the input', async () => {
    const directory = path.join(cli.dataDir, 'a-directory');
    fs.mkdirSync(directory, { recursive: true });
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [['--data-dir', '', 'folders', 'list'], /--data-dir is empty/],
      [['clone', directory, '--name', 'X'], /Cannot read the audio file .*a-directory: it is a directory/],
      [['generate', '--file', directory, '--voice', 'espeak-en-us'], /Cannot read the script file .*: it is a directory/],
      [['folders', 'list'], /Cannot read the key file .*: it is a directory/, { TUBEKIT_API_KEY_FILE: directory }],
    ];
    for (const [args, message, env] of cases) {
      const result = await cli.run(args, { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr, args.join(' ')).not.toMatch(/ENOENT|EISDIR|illegal operation/);
    }
    // A data dir that cannot be made is named (and does not hang: recursive mkdir under /proc never returns).
    const file = path.join(cli.dataDir, 'a-file');
    fs.writeFileSync(file, '');
    for (const dataDir of [path.join(file, 'data'), ...(fs.existsSync('/proc/self') ? ['/proc/no-such/data'] : [])]) {
      const result = await cli.run(['--data-dir', dataDir, 'folders', 'list']);
      expect(result.exitCode, dataDir).toBe(1);
      expect(result.stderr, dataDir).toMatch(/^error: Cannot use the data dir /);
    }
  });

  it('revokes a key by the whole key or any unambiguous start of its prefix; an empty one is a usage error', async () => {
    const first = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
    const second = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
    expect((await cli.run(['engine', 'keys', 'revoke', ''])).exitCode).toBe(2);
    const ambiguous = await cli.run(['engine', 'keys', 'revoke', 'tk_']);
    expect(ambiguous.exitCode).toBe(7);
    expect(ambiguous.stderr).toMatch(/start of \d+ active keys/);
    expect((await cli.run(['engine', 'keys', 'revoke', first.slice(0, 6)])).exitCode).toBe(0);
    expect((await cli.run(['engine', 'keys', 'revoke', `${second.slice(0, 12)}`])).exitCode).toBe(6);
    expect((await cli.run(['engine', 'keys', 'revoke', second])).exitCode).toBe(0);
    const list = JSON.parse((await cli.run(['engine', 'keys', 'list', '--json'])).stdout).keys as Array<{ prefix: string; revoked: boolean }>;
    expect(list.filter((key) => [first, second].some((whole) => whole.startsWith(key.prefix))).every((key) => key.revoked)).toBe(true);
  });

  it('refuses engine worker --idle without --until-idle', async () => {
    const result = await cli.run(['engine', 'worker', '--idle', '1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--idle only applies with --until-idle/);
  });

  it('refuses --base-url and --remote on engine commands, which administer the local engine', async () => {
    for (const args of [['--base-url', 'http://127.0.0.1:9', 'engine', 'status'], ['engine', 'keys', 'list', '--remote', '--base-url', 'http://127.0.0.1:9'], ['serve', '--base-url', 'http://127.0.0.1:9']]) {
      const result = await cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/does not apply to `tubekit (engine|serve)`: it administers the embedded engine/);
    }
    // A base URL from the environment is for the other commands; engine commands still work.
    expect((await cli.run(['engine', 'status'], { env: { TUBEKIT_BASE_URL: 'http://127.0.0.1:9' } })).exitCode).toBe(0);
  });

  it('points `job <id>` at process-channel status when the id is a channel job\'s', async () => {
    await cli.run(['engine', 'durations', 'instant']);
    const submitted = JSON.parse((await cli.run(['--json', 'process-channel', channels[0]![1]!, '--type', 'longform'])).stdout);
    const result = await cli.run(['job', String(submitted.job_id)]);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toMatch(/is a channel job/);
    expect(result.stderr).toContain(`tubekit process-channel status ${submitted.job_id}`);
    const other = await cli.run(['process-channel', 'status', 'gen_abc']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('tubekit job gen_abc');
  });

  it('follows an idempotent replay with --watch to the finished job, exactly like a new one', async () => {
    await cli.run(['engine', 'durations', 'instant']);
    const args = ['--json', 'process-channel', channels[0]![1]!, '--type', 'longform', '--idempotency-key', 'nightly-1', '--watch', '--timeout', '60'];
    const first = await cli.run(args);
    const replay = await cli.run(args);
    expect(first.exitCode).toBe(0);
    expect(replay.exitCode).toBe(0);
    const [done, again] = [JSON.parse(first.stdout), JSON.parse(replay.stdout)];
    expect(again).toMatchObject({ id: done.id, status: 'completed', eligible: done.eligible });
    expect(again.result).toEqual(done.result);
    expect(again.result).toBeTruthy();
  });

  it('warns on stderr when a reused idempotency key brings back a job for another channel or type', async () => {
    const key = ['--idempotency-key', 'zz1'];
    const made = await cli.run(['--json', 'process-channel', channels[0]![1]!, '--type', 'longform', ...key]);
    expect(made.stderr).toBe('');
    const sameChannelById = await cli.run(['--json', 'process-channel', channels[0]![0]!, '--type', 'longform', ...key]);
    expect(sameChannelById.stderr).toBe('');
    const other = await cli.run(['process-channel', channels[1]![1]!, '--type', 'shorts', ...key]);
    expect(other.exitCode).toBe(0);
    expect(other.stderr).toMatch(new RegExp(`warning: the idempotency key was first used for ${channels[0]![1]} \\(longform\\); this run asked for ${channels[1]![1]} \\(shorts\\)`));
    expect(other.stderr).toMatch(/queued nothing/);
    const otherType = await cli.run(['--json', 'process-channel', channels[0]![1]!, '--type', 'shorts', ...key]);
    expect(otherType.stderr).toMatch(/warning: .*\(shorts\)/);
  });

  it.skipIf(!hasScript)('prints the sentence alone after folders delete --yes on a terminal, and the count when piped', async () => {
    await cli.run(['folders', 'create', 'Gone soon']);
    await cli.run(['folders', 'create', 'Gone too']);
    const ids = (await cli.run(['folders', 'list'])).stdout.trim().split('\n').map((line) => line.split('\t')[0]!);
    const onTerminal = await runOnTerminal(cli, ['folders', 'delete', ids[0]!, '--yes']);
    expect(onTerminal.exitCode).toBe(0);
    expect(onTerminal.screen.trim()).toMatch(/^Deleted folder \d+; 0 channel\(s\) unsaved\.$/);
    const piped = await cli.run(['folders', 'delete', ids[1]!, '--yes']);
    expect(piped.stdout).toBe('0\n');
  });
});
