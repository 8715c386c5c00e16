/**
 * The command line as a newcomer meets it (issue 12), against a server: remote time bounds and
 * non-service answers, saved list and `tubekit api` on both engines, auth login checking keys.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, startServe, type CliSandbox } from '../support/cli.js';

describe('a base URL that does not behave like the service', () => {
  let cli: CliSandbox;
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    cli = cliSandbox();
    // Accepts the connection; answers HTML on /html/… and nothing at all elsewhere.
    server = http.createServer((request, response) => {
      if (request.url?.startsWith('/html/')) response.writeHead(404, { 'content-type': 'text/html' }).end('<html><title>Not Found</title><body>nope</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    cli.cleanup();
  });

  it('gives up on a silent server within --request-timeout, retries included, and says what happened', async () => {
    const started = Date.now();
    const result = await cli.run(['--base-url', url, '--request-timeout', '1', 'folders', 'list'], { env: { TUBEKIT_API_KEY: 'k' } });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain(`error: The service at ${url} did not answer within 1 s.`);
    expect(result.stderr).not.toMatch(/UND_ERR/);
    const fromEnvironment = await cli.run(['--base-url', url, 'health'], { env: { TUBEKIT_API_KEY: 'k', TUBEKIT_TIMEOUT: '0.5' } });
    expect(fromEnvironment.stderr).toContain('did not answer within 0.5 s');
    expect((await cli.run(['--request-timeout', 'soon', 'folders', 'list'])).exitCode).toBe(2);
  });

  it('says the base URL did not answer like the service instead of dumping its HTML page', async () => {
    const result = await cli.run(['--base-url', `${url}/html`, 'folders', 'list'], { env: { TUBEKIT_API_KEY: 'k' } });
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain(`did not answer like the service: HTTP 404 with text/html ("Not Found")`);
    expect(result.stderr).not.toContain('<html>');
  });
});

describe('saved list, composed from the folder calls, on both engines', () => {
  let cli: CliSandbox;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let handles: string[];
  beforeAll(async () => {
    cli = cliSandbox();
    handles = (await cli.run(['engine', 'sample', 'channels', '--limit', '3'])).stdout.trim().split('\n').map((line) => line.split('\t')[1]!);
    serve = await startServe(cli);
  });
  afterAll(async () => {
    await serve.stop();
    cli.cleanup();
  });

  for (const engine of ['embedded', 'remote'] as const) {
    it(`lists every saved channel across folders, or one folder's [${engine}]`, async () => {
      const key = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
      const env = engine === 'remote' ? { TUBEKIT_BASE_URL: serve.url, TUBEKIT_API_KEY: key } : { TUBEKIT_API_KEY: key };
      const run = (args: string[]) => cli.run(args, { env });
      const made = engine === 'remote' ? 'R' : 'L';
      const a = JSON.parse((await run(['--json', 'folders', 'create', `${made}1`])).stdout).folder.id;
      const b = JSON.parse((await run(['--json', 'folders', 'create', `${made}2`])).stdout).folder.id;
      await run(['saved', 'add', handles[0]!, handles[1]!, '--folder', String(a)]);
      await run(['saved', 'add', handles[2]!, '--folder', String(b)]);
      const all = JSON.parse((await run(['--json', 'saved', 'list'])).stdout);
      expect(all.count).toBe(3);
      expect(all.channels.map((row: { folder_id: number; handle: string }) => [row.folder_id, row.handle]).sort()).toEqual(
        [[a, handles[0]], [a, handles[1]], [b, handles[2]]].sort(),
      );
      const one = await run(['saved', 'list', '--folder', String(b)]);
      expect(one.stdout.trim().split('\n').map((line) => line.split('\t').slice(0, 4))).toEqual([[String(b), `${made}2`, expect.stringMatching(/^UC/), handles[2]]]);
      expect((await run(['saved', 'list', '--folder', '999'])).exitCode).toBe(6);
    });
  }
});

describe('tubekit api, as gh api', () => {
  let cli: CliSandbox;
  let serve: Awaited<ReturnType<typeof startServe>>;
  beforeAll(async () => {
    cli = cliSandbox();
    await cli.run(['engine', 'sample', 'channels', '--limit', '1']);
    serve = await startServe(cli);
  });
  afterAll(async () => {
    await serve.stop();
    cli.cleanup();
  });

  for (const engine of ['embedded', 'remote'] as const) {
    it(`calls route-table endpoints with JSON, query and multipart encodings and the usual exit codes [${engine}]`, async () => {
      const key = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
      const env = engine === 'remote' ? { TUBEKIT_BASE_URL: serve.url, TUBEKIT_API_KEY: key } : { TUBEKIT_API_KEY: key };
      const api = (args: string[], input?: string) => cli.run(['api', ...args], { env, input });
      const created = await api(['POST', '/api/folders', '-f', 'name=Api folder']);
      expect(created.exitCode).toBe(0);
      const folderId = JSON.parse(created.stdout).folder.id;
      if (engine === 'embedded') expect((await api(['get', 'folders', '--jq', '.folders[].name'])).stdout).toBe('Api folder\n');
      const saved = await api(['POST', '/api/saved-channels', '-F', `folder_id=${folderId}`, '-F', 'channel_ids=["UC-G4LyTAzHi0Xaj33Fjszrg"]']);
      expect(JSON.parse(saved.stdout)).toMatchObject({ success: true, saved: 1 });
      const resolved = await api(['POST', '/api/channels/resolve', '--input', '-'], '{"input": "@goldenpiano"}');
      expect(JSON.parse(resolved.stdout).channel_id).toBe('UCnjgVTsmU7Ql4Vzmi0HEN8Q');
      if (engine === 'embedded') {
        const job = JSON.parse((await api(['POST', '/api/process-channel', '-f', 'channel=@goldenpiano', '-f', 'type=longform'])).stdout);
        const status = await api(['GET', `/api/process-channel/${job.job_id}?wait_seconds=0`]);
        expect(JSON.parse(status.stdout)).toMatchObject({ id: job.job_id, type: 'longform' });
      }
      const sample = path.join(cli.dataDir, 'api.wav');
      const { wavSample } = await import('../support/audio-fixtures.js');
      fs.writeFileSync(sample, wavSample(3));
      const cloned = await api(['POST', '/api/voices/clone', '-F', `audioFile=@${sample}`, '-f', 'displayName=Api voice']);
      expect(cloned.exitCode).toBe(0);
      expect(JSON.parse(cloned.stdout).voice).toMatchObject({ name: 'Api voice', voice_id: expect.stringMatching(/^clone_/) });
      expect((await api(['POST', '/api/folders'])).exitCode).toBe(2);
      if (engine === 'embedded') expect((await api(['DELETE', '/api/folders/99999'])).exitCode).toBe(6);
      const refused = await cli.run(['api', 'GET', '/api/folders'], { env: { ...env, TUBEKIT_API_KEY: 'tk_nope' } });
      expect(refused.exitCode).toBe(4);
      if (engine === 'embedded') expect((await api(['FETCH', '/api/folders'])).exitCode).toBe(2);
    });
  }

  it('sends any other path as it is in remote mode, and answers 404 for it on the embedded engine (the OpenAPI document aside)', async () => {
    const remote = await cli.run(['--base-url', serve.url, 'api', 'GET', '/api/openapi.json'], { env: { TUBEKIT_API_KEY: 'k' } });
    expect(remote.exitCode).toBe(0);
    const local = await cli.run(['api', 'GET', '/api/openapi.json']);
    expect(local.exitCode).toBe(0);
    // The same contract on both engines; only the address it was fetched from differs.
    const { servers, ...published } = JSON.parse(remote.stdout);
    expect(servers).toEqual([{ url: serve.url, description: expect.any(String) }]);
    expect(JSON.parse(local.stdout)).toEqual(published);
    const unknown = await cli.run(['api', 'GET', '/api/no-such-thing']);
    expect(unknown.exitCode).toBe(6);
    expect(unknown.stderr).toMatch(/is not an endpoint of the service/);
    const wrongMethod = await cli.run(['api', 'PATCH', '/api/folders']);
    expect(wrongMethod.stderr).toMatch(/that path takes GET, POST/);
  });
});

describe('auth login checks the key, as gh does', () => {
  let cli: CliSandbox;
  let serve: Awaited<ReturnType<typeof startServe>>;
  beforeAll(async () => {
    cli = cliSandbox();
    serve = await startServe(cli);
  });
  afterAll(async () => {
    await serve.stop();
    cli.cleanup();
  });
  const storedKey = (profile: string) => {
    const file = path.join(cli.configDir, 'config.json');
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).profiles?.[profile]?.api_key : undefined;
  };

  it('refuses a key the service does not know with exit 4 and saves nothing', async () => {
    const remote = await cli.run(['--profile', 'r', '--base-url', serve.url, 'auth', 'login'], { input: 'garbage\n' });
    expect(remote.exitCode).toBe(4);
    expect(remote.stderr).toMatch(new RegExp(`The service at ${serve.url} refused the key`));
    const local = await cli.run(['auth', 'login'], { input: 'garbage\n' });
    expect(local.exitCode).toBe(4);
    expect(storedKey('r')).toBeUndefined();
    expect(storedKey('default')).toBeUndefined();
  });

  it('saves a key the service accepts', async () => {
    const key = (await cli.run(['engine', 'keys', 'create', '--plan', 'starter'])).stdout.trim();
    const result = await cli.run(['--profile', 'r', '--base-url', serve.url, 'auth', 'login'], { input: `${key}\n` });
    expect(result.exitCode).toBe(0);
    expect(storedKey('r')).toBe(key);
  });

  it('saves the key with a warning when the service cannot be reached', async () => {
    const result = await cli.run(['--profile', 'offline', '--base-url', 'http://127.0.0.1:9', 'auth', 'login'], { input: 'tk_unchecked\n' });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/warning: Could not check the key/);
    expect(storedKey('offline')).toBe('tk_unchecked');
  });
});
