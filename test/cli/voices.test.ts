import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavSample } from '../support/audio-fixtures.js';
import { BIN, cliSandbox, type CliSandbox } from '../support/cli.js';

async function mp3Seconds(file: string): Promise<number> {
  const data = fs.readFileSync(file);
  const meta = await parseBuffer(data, { mimeType: 'audio/mpeg', size: data.length }, { duration: true });
  expect(meta.format.container).toBe('MPEG');
  return meta.format.duration!;
}

describe('tubekit CLI (built binary): voices, clone, generate', () => {
  let cli: CliSandbox;
  let work: string;
  const file = (name: string) => path.join(work, name);
  beforeAll(() => {
    cli = cliSandbox();
    work = path.join(cli.dataDir, '..', 'work');
    fs.mkdirSync(work, { recursive: true });
    fs.writeFileSync(file('me.wav'), wavSample(3, { f0: 200 }));
    fs.writeFileSync(file('notes.txt'), 'this is not audio');
  });
  afterAll(() => cli.cleanup());

  it('clones a voice from a file and lists it', async () => {
    const cloned = await cli.run(['clone', file('me.wav'), '--name', 'Me', '--lang', 'de_de', '--tags', 'calm,warm', '--json']);
    expect(cloned.exitCode).toBe(0);
    const { voice } = JSON.parse(cloned.stdout);
    expect(voice).toMatchObject({ name: 'Me', language: 'DE_DE', tags: ['calm', 'warm'] });
    const listed = await cli.run(['voices', 'list', '--provider', 'stealth']);
    const row = listed.stdout.trim().split('\n').at(-1)!.split('\t');
    expect(row).toEqual([voice.voice_id, 'Me', 'de', 'stealth', 'yes']);
  });

  it('exits 2 for a rejected sample and says why on stderr only', async () => {
    const text = await cli.run(['clone', file('notes.txt'), '--name', 'X']);
    expect(text.exitCode).toBe(2);
    expect(text.stdout).toBe('');
    expect(text.stderr).toMatch(/audioFile: The audio sample is a text file/);
    const short = await cli.run(['--json', 'clone', file('me.wav'), '--name', 'X', '--provider', 'alt']);
    expect(short.exitCode).toBe(2);
    expect(short.stdout).toBe('');
    expect(JSON.parse(short.stderr).error).toMatchObject({ status: 400, code: 'invalid_request', message: expect.stringMatching(/audio_file: .*at least 30 seconds/) });
    expect((await cli.run(['clone', file('missing.wav'), '--name', 'X'])).exitCode).toBe(2);
    expect((await cli.run(['clone', file('me.wav'), '--name', 'X', '--provider', 'alt', '--lang', 'EN_US'])).exitCode).toBe(2);
  });

  it('exits 5 when the plan has no voice access', async () => {
    const key = (await cli.run(['engine', 'keys', 'create', '--plan', 'starter'])).stdout.trim();
    const result = await cli.run(['clone', file('me.wav'), '--name', 'X'], { env: { TUBEKIT_API_KEY: key } });
    expect(result.exitCode).toBe(5);
  });

  it('generates, waits and saves the MP3 with generate --watch -o', async () => {
    const result = await cli.run(['generate', 'Hello from the command line. This audio is real.', '--voice', 'espeak-en-us', '--watch', '-o', file('hello.mp3')]);
    expect(result.exitCode).toBe(0);
    const record = Object.fromEntries(result.stdout.trim().split('\n').map((line) => line.split('\t')));
    expect(record).toMatchObject({ status: 'completed', type: 'generation', voice_id: 'espeak-en-us' });
    const seconds = await mp3Seconds(file('hello.mp3'));
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThan(6);
    expect(Number(record.audio_duration_seconds)).toBeCloseTo(seconds, 0);
    expect(fs.readdirSync(work).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('speaks a script from stdin with a clone, audio to stdout with -o -', async () => {
    const listed = await cli.run(['voices', 'list', '--provider', 'stealth', '--json']);
    const clone = JSON.parse(listed.stdout).voices.find((voice: { is_cloned: boolean }) => voice.is_cloned);
    const result = await execa('node', [BIN, 'generate', '-', '--voice', clone.voice_id, '-o', '-'], {
      env: cli.env,
      input: 'Guten Morgen.',
      encoding: 'buffer',
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    fs.writeFileSync(file('stdout.mp3'), result.stdout);
    expect(await mp3Seconds(file('stdout.mp3'))).toBeGreaterThan(0.3);
  });

  it('prints the job id at once without --watch, and the job finishes on its own', async () => {
    const submitted = await cli.run(['generate', 'Queued and left alone.', '--voice', 'espeak-en-us-f3']);
    expect(submitted.exitCode).toBe(0);
    const jobId = submitted.stdout.trim();
    expect(jobId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const watched = await cli.run(['--json', 'job', jobId, '--watch', '--timeout', '30']);
    expect(watched.exitCode).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ job_id: jobId, status: 'completed', audio_url: expect.stringMatching(/^file:/) });
  });

  it('exits 2 without a voice when nobody can be asked, and 1 when the job fails', async () => {
    const noVoice = await cli.run(['generate', 'Hi.']);
    expect(noVoice.exitCode).toBe(2);
    expect(noVoice.stderr).toMatch(/--voice/);
    expect((await cli.run(['engine', 'faults', 'set', 'speech-synthesis'])).exitCode).toBe(0);
    try {
      const failed = await cli.run(['generate', 'Hi.', '--voice', 'espeak-en-us', '--watch']);
      expect(failed.exitCode).toBe(1);
      expect(failed.stderr).toMatch(/failed: Speech synthesis failed/);
    } finally {
      await cli.run(['engine', 'faults', 'clear']);
    }
  });

  it('refuses another provider\'s fields and -o - with --json before queueing anything', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['generate', 'Hi.', '--voice', 'espeak-en-us', '--speed', '1.5'], /--speed does not apply to stealth voices/],
      [['generate', 'Hi.', '--voice', 'alt_x', '--provider', 'alt', '--speaking-rate', '1.2'], /--speaking-rate does not apply to alt voices/],
      [['--json', 'generate', 'Hi.', '--voice', 'espeak-en-us', '-o', '-'], /-o - writes the audio to stdout/],
      [['generate', 'Hi.', '--voice', 'espeak-en-us', '--timeout', '5'], /--timeout only applies while waiting/],
    ];
    for (const [args, message] of cases) {
      const result = await cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
  });

  it('never writes over an existing -o file without --force, refusing before anything is queued', async () => {
    const taken = file('taken.mp3');
    fs.writeFileSync(taken, 'mine');
    // Nobody listens on this base URL: a command that got as far as a request would exit 9, not 2.
    const refused = await cli.run(['--base-url', 'http://127.0.0.1:9', 'generate', 'Hi.', '--voice', 'espeak-en-us', '-o', taken]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/taken\.mp3 already exists; tubekit does not write over a file without --force\.\n.*Pass --force to overwrite it/);
    expect(fs.readFileSync(taken, 'utf8')).toBe('mine');
    const jobRefused = await cli.run(['--base-url', 'http://127.0.0.1:9', 'job', 'gen_whatever', '--watch', '-o', taken]);
    expect(jobRefused.exitCode).toBe(2);
    expect(jobRefused.stderr).toMatch(/already exists/);

    const forced = await cli.run(['generate', 'Hi.', '--voice', 'espeak-en-us', '-o', taken, '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(fs.statSync(taken).size).toBeGreaterThan(1000);
    const id = /job_id\t(\S+)/.exec(forced.stdout)![1]!;
    const again = await cli.run(['job', id, '-o', taken]);
    expect(again.exitCode).toBe(2);
    expect((await cli.run(['job', id, '-o', taken, '--force'])).exitCode).toBe(0);
    expect(fs.readdirSync(work).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('exits 10 when -o waits past --timeout, with a resume command that still saves the file', async () => {
    const target = file('late speech.mp3');
    const result = await cli.run(['generate', 'A sentence that takes a moment to speak.', '--voice', 'espeak-en-us', '-o', target, '--timeout', '0.05']);
    expect(result.exitCode).toBe(10);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`--watch -o '${target}'`);
    const resume = /Resume with: tubekit (.*)/.exec(result.stderr)![1]!;
    expect(resume).toMatch(/^job [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} --watch -o /);
    const resumed = await cli.run(['job', resume.split(' ')[1]!, '--watch', '-o', target]);
    expect(resumed.exitCode).toBe(0);
    expect(fs.statSync(target).size).toBeGreaterThan(1000);
  });

  it('deletes a clone only with confirmation, then reports it gone', async () => {
    const listed = await cli.run(['voices', 'list', '--provider', 'stealth', '--json']);
    const clone = JSON.parse(listed.stdout).voices.find((voice: { is_cloned: boolean }) => voice.is_cloned);
    expect((await cli.run(['voices', 'delete', clone.voice_id, '--provider', 'stealth'])).exitCode).toBe(2);
    expect((await cli.run(['voices', 'delete', clone.voice_id, '--yes'])).exitCode).toBe(2);
    expect((await cli.run(['voices', 'delete', clone.voice_id, '--provider', 'stealth', '--yes'])).exitCode).toBe(0);
    expect((await cli.run(['voices', 'delete', clone.voice_id, '--provider', 'stealth', '--yes'])).exitCode).toBe(6);
  });
});
