/**
 * The built binary on a real pseudo-terminal: confirmations asked and answered with keys, Ctrl-C
 * typed at a prompt and while watching, and the spinner staying on stderr. Skipped where
 * util-linux `script` is missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavSample } from '../support/audio-fixtures.js';
import { cliSandbox, stopDetachedWorkers, type CliSandbox } from '../support/cli.js';
import { hasScript, runOnTerminal } from '../support/terminal.js';

describe.skipIf(!hasScript)('tubekit on a terminal', () => {
  let cli: CliSandbox;
  let handle: string;
  beforeAll(async () => {
    cli = cliSandbox();
    handle = (await cli.run(['engine', 'sample', 'channels', '--limit', '1'])).stdout.split('\t')[1]!;
  });
  afterAll(() => {
    stopDetachedWorkers(cli.dataDir);
    cli.cleanup();
  });

  const folderCount = async () => JSON.parse((await cli.run(['folders', 'list', '--json'])).stdout).count as number;

  it('asks before deleting a folder: "n" exits 3 and keeps it, "y" deletes it', async () => {
    await cli.run(['folders', 'create', 'Keep me']);
    const declined = await runOnTerminal(cli, ['folders', 'delete', '1'], { steps: [{ after: /Delete folder 1 .*\?/, keys: 'n\r' }] });
    expect(declined.exitCode).toBe(3);
    expect(declined.screen).toMatch(/Cancelled; nothing was changed/);
    expect(await folderCount()).toBe(1);
    const accepted = await runOnTerminal(cli, ['folders', 'delete', '1'], { steps: [{ after: /Delete folder 1 .*\?/, keys: 'y\r' }] });
    expect(accepted.exitCode).toBe(0);
    expect(await folderCount()).toBe(0);
  });

  it('treats Ctrl-C at a confirmation as cancelled, and never asks with --no-input', async () => {
    const sample = path.join(cli.dataDir, 'me.wav');
    fs.writeFileSync(sample, wavSample(2));
    const { voice } = JSON.parse((await cli.run(['clone', sample, '--name', 'Mine', '--json'])).stdout);
    const interrupted = await runOnTerminal(cli, ['voices', 'delete', voice.voice_id, '--provider', 'stealth'], {
      steps: [{ after: /permanently\?/, keys: '\u0003' }],
    });
    expect(interrupted.exitCode).toBe(3);
    expect(interrupted.screen).not.toMatch(/force closed|--verbose/);
    const refused = await runOnTerminal(cli, ['--no-input', 'voices', 'delete', voice.voice_id, '--provider', 'stealth']);
    expect(refused.exitCode).toBe(2);
    expect(refused.screen).toMatch(/--yes/);
    const listed = await cli.run(['voices', 'list', '--provider', 'stealth', '--json']);
    expect(JSON.parse(listed.stdout).voices.map((v: { voice_id: string }) => v.voice_id)).toContain(voice.voice_id);
  });

  it('indents --json on a terminal', async () => {
    const result = await runOnTerminal(cli, ['folders', 'list', '--json']);
    expect(result.exitCode).toBe(0);
    expect(result.screen).toMatch(/\{\r?\n {2}"success": true,/);
  });

  it('draws the --watch spinner on the terminal and keeps stdout for the body alone', async () => {
    await cli.run(['engine', 'durations', '1500']);
    const body = path.join(cli.dataDir, 'body.json');
    const result = await runOnTerminal(cli, ['process-channel', handle, '--type', 'longform', '--watch', '--json'], { stdoutFile: body });
    expect(result.exitCode).toBe(0);
    expect(result.screen).toMatch(/Job \d+: running · \d+s/);
    expect(result.screen).not.toContain('"success"');
    const written = fs.readFileSync(body, 'utf8');
    expect(written.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(written)).toMatchObject({ success: true, status: 'completed' });
  });

  it('stops watching on a typed Ctrl-C with exit 3 and a resume hint; the job keeps running', async () => {
    await cli.run(['engine', 'durations', '6000']);
    const result = await runOnTerminal(cli, ['process-channel', handle, '--type', 'longform', '--watch'], {
      steps: [{ after: /: running/, keys: '\u0003' }],
    });
    expect(result.exitCode).toBe(3);
    expect(result.screen).toMatch(/Stopped watching Job \d+; the job keeps running/);
    const id = /Resume with: tubekit process-channel status (\d+) --watch/.exec(result.screen)?.[1];
    expect(id).toBeDefined();
    const status = await cli.run(['process-channel', 'status', id!, '--json']);
    expect(JSON.parse(status.stdout).status).toBe('running');
  });

  it('refuses to write audio to the terminal with -o -', async () => {
    const result = await runOnTerminal(cli, ['generate', 'Hello.', '--voice', 'espeak-en-us', '-o', '-']);
    expect(result.exitCode).toBe(2);
    expect(result.screen).toMatch(/stdout, which is a terminal/);
  });
});
