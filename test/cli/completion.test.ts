import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
