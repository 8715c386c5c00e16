import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wavSample } from '../support/audio-fixtures.js';
import { BIN, cliSandbox } from '../support/cli.js';

const committed = { bash: 'tubekit.bash', zsh: '_tubekit', fish: 'tubekit.fish' } as const;

describe('shell completions', () => {
  const cli = cliSandbox();
  afterAll(() => cli.cleanup());

  for (const [shell, file] of Object.entries(committed)) {
    it(`keeps completions/${file} in sync with the command tree (regenerate: tubekit completion ${shell} > completions/${file})`, async () => {
      const result = await cli.run(['completion', shell]);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('folders');
      expect(fs.readFileSync(path.resolve('completions', file), 'utf8')).toBe(result.stdout);
    });
  }

  it('generates a bash script that completes subcommands', async () => {
    const result = await cli.run(['completion', 'bash']);
    const script = path.join(cli.dataDir, 'c.bash');
    fs.mkdirSync(cli.dataDir, { recursive: true });
    fs.writeFileSync(script, result.stdout);
    const { execa } = await import('execa');
    const probe = await execa('bash', ['-c', `source ${script}; COMP_WORDS=(tubekit folders ""); COMP_CWORD=2; _tubekit; echo "\${COMPREPLY[@]}"`]);
    expect(probe.stdout.split(' ')).toEqual(expect.arrayContaining(['list', 'create', 'rename', 'delete', 'channels']));
  });

  it('completes folder ids and voice ids from the embedded engine in bash', async () => {
    await cli.run(['folders', 'create', 'Completed']);
    await cli.run(['folders', 'create', 'Also completed']);
    const script = path.join(cli.dataDir, 'dynamic.bash');
    fs.writeFileSync(script, (await cli.run(['completion', 'bash'])).stdout);
    const { execa } = await import('execa');
    const complete = async (words: string[]) => {
      const array = words.map((word) => `'${word}'`).join(' ');
      const probe = await execa('bash', ['-c', `source ${script}; COMP_WORDS=(${BIN} ${array}); COMP_CWORD=${words.length}; _tubekit; echo "\${COMPREPLY[@]}"`], { env: cli.env });
      return probe.stdout.split(' ').filter(Boolean);
    };
    expect(await complete(['folders', 'delete', ''])).toEqual(['1', '2']);
    expect(await complete(['saved', 'add', '@x', '--folder', ''])).toEqual(['1', '2']);
    expect(await complete(['saved', 'move', '@x', '--to', ''])).toEqual(['1', '2']);
    expect(await complete(['generate', 'Hi', '--voice', 'espeak-en-us-f'])).toEqual(expect.arrayContaining(['espeak-en-us-f3']));
    expect(await complete(['folders', 'delete', '1', '--y'])).toEqual(['--yes']);
  });

  /** What bash offers after `tubekit <words>`, with the generated script and the sandbox's environment. */
  const bashCompletion = async (words: string[], env: Record<string, string> = {}) => {
    const script = path.join(cli.dataDir, 'values.bash');
    fs.mkdirSync(cli.dataDir, { recursive: true });
    if (!fs.existsSync(script)) fs.writeFileSync(script, (await cli.run(['completion', 'bash'])).stdout);
    const { execa } = await import('execa');
    const array = words.map((word) => `'${word}'`).join(' ');
    const probe = await execa('bash', ['-c', `source ${script}; COMP_WORDS=(${BIN} ${array}); COMP_CWORD=${words.length}; _tubekit; echo "\${COMPREPLY[@]}"`], { env: { ...cli.env, ...env } });
    return probe.stdout.split(' ').filter(Boolean);
  };

  it('completes the values of options and arguments that take fixed ones in bash', async () => {
    expect(await bashCompletion(['download', 'https://youtu.be/x', '--format', ''])).toEqual(['video', 'audio', 'subtitles']);
    expect(await bashCompletion(['download', 'https://youtu.be/x', '--quality', ''])).toEqual(['360p', '480p', '720p', '1080p']);
    expect(await bashCompletion(['terminated', 'cooking', '--sort', 'subs'])).toEqual(['subs_asc', 'subs_desc', 'subs_24h_asc', 'subs_24h_desc']);
    expect(await bashCompletion(['process-channel', '@x', '--type', ''])).toEqual(['shorts', 'longform']);
    expect(await bashCompletion(['voices', 'list', '--provider', ''])).toEqual(['stealth', 'alt', 'minimax', 'elevenlabs']);
    expect(await bashCompletion(['analyze', 'https://youtu.be/x', '--media-resolution', ''])).toEqual(['low', 'default']);
    expect(await bashCompletion(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    // Options without fixed values still complete as before.
    expect(await bashCompletion(['download', 'https://youtu.be/x', '--for'])).toEqual(['--format', '--force']);
  });

  it('offers only your clones to voices delete, not the built-in voices', async () => {
    const sample = path.join(cli.dataDir, 'me.wav');
    fs.writeFileSync(sample, wavSample(3, { f0: 200 }));
    const cloned = JSON.parse((await cli.run(['--json', 'clone', sample, '--name', 'Mine'])).stdout).voice.voice_id as string;
    expect(await bashCompletion(['voices', 'delete', ''])).toEqual([cloned]);
    expect(await bashCompletion(['generate', 'Hi', '--voice', ''])).toEqual(expect.arrayContaining([cloned, 'espeak-en-us']));
  });

  it('asks the data dir and profile typed on the line for dynamic values', async () => {
    const other = path.join(cli.dataDir, '..', 'other-data');
    for (const name of ['One', 'Two', 'Three']) expect((await cli.run(['--data-dir', other, 'folders', 'create', name])).exitCode).toBe(0);
    const here = await bashCompletion(['folders', 'delete', '']);
    expect(here).not.toContain('3');
    expect(await bashCompletion(['--data-dir', other, 'folders', 'delete', ''])).toEqual(['1', '2', '3']);
    expect(await bashCompletion([`--data-dir=${other}`, 'folders', 'delete', ''])).toEqual(['1', '2', '3']);
    // A profile whose base URL is a service with folder 42.
    const folders = { success: true, count: 1, folders: [{ id: 42, name: 'Remote folder', channel_count: 0, created_at: '' }] };
    const server = http.createServer((request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(folders)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await cli.run(['--profile', 'other', 'config', 'set', 'base_url', url])).exitCode).toBe(0);
      const env = { TUBEKIT_API_KEY: 'k', XDG_CACHE_HOME: path.join(cli.dataDir, 'profile-cache') };
      expect(await bashCompletion(['folders', '--profile', 'other', 'delete', ''], env)).toEqual(['42']);
      expect(await bashCompletion(['folders', 'delete', ''], env)).not.toContain('42');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // A value after a global option is not read as a command.
    expect(await bashCompletion(['--profile', 'folders', 'folders', ''])).toEqual(expect.arrayContaining(['list', 'delete']));
  });

  it('generates zsh and fish scripts that complete the same values and pass the same options on', async () => {
    const zsh = (await cli.run(['completion', 'zsh'])).stdout;
    expect(zsh).toContain(`('download --format') values='video audio subtitles' ;;`);
    expect(zsh).toContain(`('completion') values='bash zsh fish' ;;`);
    expect(zsh).toContain(`('voices.delete') kind=deletable-voice ;;`);
    expect(zsh).toContain('(--data-dir|--profile|--base-url)');
    expect(zsh).toContain('$service __complete $kind');
    const fish = (await cli.run(['completion', 'fish'])).stdout;
    expect(fish).toContain(`-l quality -x -a '360p 480p 720p 1080p'`);
    expect(fish).toContain(`-n "__tubekit_at 'completion'" -a 'bash zsh fish'`);
    expect(fish).toContain(`-a '(__tubekit_complete deletable-voice)'`);
    expect(fish).toContain('$words[1] $service __complete $argv[1]');
  });

  it('completes from a cached list in remote mode, so a Tab works while the service is away', async () => {
    const folders = { success: true, count: 1, folders: [{ id: 42, name: 'Remote folder', channel_count: 0, created_at: '' }] };
    const server = http.createServer((request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(folders)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = { TUBEKIT_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, TUBEKIT_API_KEY: 'k', XDG_CACHE_HOME: path.join(cli.dataDir, 'cache') };
    const fresh = await cli.run(['__complete', 'folder'], { env });
    expect(fresh.stdout).toBe('42\tRemote folder\n');
    await new Promise((resolve) => server.close(resolve));
    const cached = await cli.run(['__complete', 'folder'], { env });
    expect(cached.stdout).toBe('42\tRemote folder\n');
    expect(cached.stderr).toBe('');
    const unknown = await cli.run(['__complete', 'folder'], { env: { ...env, XDG_CACHE_HOME: path.join(cli.dataDir, 'empty-cache') } });
    expect(unknown).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });
});
