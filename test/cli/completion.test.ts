import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliSandbox } from '../support/cli.js';

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
});
