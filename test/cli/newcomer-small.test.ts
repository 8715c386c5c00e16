/**
 * Small things a new user tripped on (issue 23), on the built binary: an empty resolve input is an
 * error line like any other, times refuse out-of-range parts in both forms, and the OpenAPI
 * document answers on the embedded engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

/** A base URL nobody listens on: a command that got as far as calling would exit 9, not 2. */
const NOWHERE = ['--base-url', 'http://127.0.0.1:9'];

describe('small things a newcomer meets', () => {
  let cli: CliSandbox;
  beforeAll(() => {
    cli = cliSandbox();
  });
  afterAll(() => cli.cleanup());

  it('prints an empty resolve input\'s failure as an error line', async () => {
    const result = await cli.run(['resolve', '']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: "": Invalid request: input: must not be empty.\n');
  });

  it('refuses minutes or seconds past 59 in 1h99m as in 1:75, before any call', async () => {
    const video = 'https://www.youtube.com/watch?v=GHGuclERoWA';
    for (const [time, part] of [['1:75', 'field'], ['1h99m', 'unit'], ['2m60s', 'unit']]) {
      const result = await cli.run([...NOWHERE, 'download', video, '--start', time!]);
      expect(result.exitCode, time).toBe(2);
      expect(result.stderr, time).toContain(`"${time}" is not a valid time: minutes and seconds after the first ${part} go up to 59`);
    }
  });

  it('answers GET /api/openapi.json on the embedded engine, without serve', async () => {
    const result = await cli.run(['api', 'GET', '/api/openapi.json']);
    expect(result.exitCode).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document.openapi).toBe('3.1.0');
    expect(document).not.toHaveProperty('servers');
    expect(Object.keys(document.paths['/api/folders'].post.responses)).toEqual(['201', '400', '401', '403', '408', '409', '413', 'default']);
    expect(document.paths['/api/terminated-channels/{channel_id}'].get.operationId).toBe('terminated.show');
  });
});
