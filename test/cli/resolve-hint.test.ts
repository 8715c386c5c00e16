/** `tubekit resolve` on a live data dir whose site cannot be reached: the error, then the same hint other commands print. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli.js';
import { closedOrigin } from '../support/platform-fixture-server.js';

let cli: CliSandbox;
beforeEach(() => {
  cli = cliSandbox();
});
afterEach(() => cli.cleanup());

it('prints the hint after the per-input error, as saved add does; exit 9', async () => {
  expect((await cli.run(['engine', 'platform', 'live'])).exitCode).toBe(0);
  const env = { TUBEKIT_PLATFORM_ORIGIN: await closedOrigin(), TUBEKIT_PLATFORM_RETRIES: '0' };
  const resolved = await cli.run(['resolve', '@nobodyhere'], { env });
  expect(resolved.exitCode).toBe(9);
  const lines = resolved.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^error: "@nobodyhere": the video platform could not be reached/);
  expect(lines.at(-1)).toBe('Check the connection, or pass --proxy <url> (or set TUBEKIT_PROXY); `tubekit engine platform sample` works offline.');
  // The same hint as another command that reads the site.
  const video = await cli.run(['video', 'https://youtu.be/GHGuclERoWA'], { env });
  expect(video.stderr.trimEnd().split('\n').at(-1)).toBe(lines.at(-1));
  // --json: the hint travels in the error line, not as a second line.
  const json = await cli.run(['resolve', '@nobodyhere', '--json'], { env });
  expect(json.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(JSON.parse(json.stderr).error.hint).toBe(lines.at(-1));
});
