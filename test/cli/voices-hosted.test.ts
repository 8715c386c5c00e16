/** `voices list` against a service without /api/voices/alt (the hosted one names it otherwise): its stealth voices, and the setting to name. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

let cli: CliSandbox;
let server: http.Server;
let baseUrl: string;
beforeAll(async () => {
  cli = cliSandbox();
  server = http.createServer((request, response) => {
    const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.url === '/api/voices/stealth') return json(200, { success: true, voices: [{ voice_id: 'v1', name: 'Calm', language: 'English', description: '', tags: [], is_cloned: false }] });
    json(404, { success: false, error: 'Not found', code: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  cli.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

it('lists the stealth voices and names alt_provider_name when the service has no /api/voices/alt', async () => {
  const result = await cli.run(['voices', 'list'], { env: { TUBEKIT_BASE_URL: baseUrl, TUBEKIT_API_KEY: 'tk_test0000000000' } });
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toContain('Calm');
  expect(result.stderr).toContain('tubekit config set alt_provider_name <name>');
  // Asked for alt alone, its failure is the answer.
  const alt = await cli.run(['voices', 'list', '--provider', 'alt'], { env: { TUBEKIT_BASE_URL: baseUrl, TUBEKIT_API_KEY: 'tk_test0000000000' } });
  expect(alt.exitCode).not.toBe(0);
});
