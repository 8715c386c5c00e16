/** Human output never carries control characters from the service's data; --json prints the body as it came. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { expect, it } from 'vitest';
import { CliApp } from '../../../src/cli/app.js';
import { printRecord } from '../../../src/cli/output.js';
import { memoryIO } from '../../support/memory-io.js';

const TITLE = 'Evil\u001b]0;pwned\u0007 \u001b[2JChannel\r\u009b31m';

function app(json: boolean) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-term-'));
  const memory = memoryIO({ env: { NO_COLOR: '1', HOME: home, XDG_CONFIG_HOME: home, TUBEKIT_DATA_DIR: home } });
  const program = new Command().option('--json');
  if (json) program.parse(['node', 'tubekit', '--json']);
  return { cli: new CliApp(memory.io, program), ...memory };
}

it('strips escape sequences and other controls from a title shown to a person', async () => {
  const { cli, stdout } = app(false);
  await cli.render({ channel: { title: TITLE, ids: [TITLE] } }, (body) => printRecord(cli.io, [['title', body.channel.title], ['ids', body.channel.ids]]));
  expect(stdout()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  expect(stdout()).toContain('Evil]0;pwned [2JChannel31m');
});

it('prints the body exactly as it came with --json', async () => {
  const { cli, stdout } = app(true);
  await cli.render({ title: TITLE }, () => undefined);
  expect(JSON.parse(stdout())).toEqual({ title: TITLE });
});
