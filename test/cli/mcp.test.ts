/**
 * `tubekit mcp` end to end: the built binary, spoken to with the official SDK's client over stdio
 * (and streamable HTTP), on the embedded engine and on a remote one over `serve`.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeNames, type RouteName } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';
import { Engine } from '../../src/engine/engine.js';
import { LocalService } from '../../src/engine/local-service.js';
import { toolNames } from '../../src/mcp/tool-names.js';
import { RemoteService } from '../../src/remote/remote-service.js';
import { wavSample } from '../support/audio-fixtures.js';
import { cliSandbox, startServe, type CliSandbox } from '../support/cli.js';
import { nonJsonRpcLines, startMcp, toolError, type McpSession, type ToolResult } from '../support/mcp.js';

const ROUTE_OF_TOOL = new Map(Object.entries(toolNames).flatMap(([route, naming]) => [naming.name, ...((naming as { aliases?: string[] }).aliases ?? [])].map((name) => [name, route as RouteName])));

/** What the route itself answers: the body, or the error's status, code and message. */
async function direct(service: Service, route: RouteName, args: Record<string, unknown>): Promise<{ body?: unknown; error?: { status: number; code: string; message: string } }> {
  try {
    return { body: await service.call(route, args as never) };
  } catch (error) {
    const { status, code, message } = error as { status: number; code: string; message: string };
    return { error: { status, code, message } };
  }
}

async function call(session: McpSession, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await session.client.callTool({ name, arguments: args })) as ToolResult;
}

/** Reads and refusals whose answers do not depend on when they are asked. */
const SAME_AS_ROUTE: Array<[string, Record<string, unknown>]> = [
  ['list_folders', {}],
  ['create_folder', { name: '' }],
  ['rename_folder', { id: 999, name: 'Nowhere' }],
  ['get_job', { job_id: 'gen_doesnotexist' }],
  ['get_video_analysis_result', { job_id: 'gen_doesnotexist' }],
  ['get_channel_job', { job_id: 'abc' }],
  ['search_terminated_channels', { q: 'piano' }],
  ['search_terminated_channels', { q: 'piano', sort: 'loudest' }],
  ['resolve_channel', { input: '@honestrunning' }],
  ['resolve_url', { input: 'not a channel at all !!' }],
  ['download_video', { video_url: 'https://example.com/not-a-video' }],
  ['save_channels', { channel_ids: ['nope'], folder_id: 1 }],
  ['delete_stealth_voice', { voice_id: 'nope' }],
  ['clone_stealth_voice', { displayName: 'No sample' }],
  ['top_collab_channels', { period: 3 }],
  ['list_stealth_voices', {}],
  ['list_alerts', {}],
];

for (const kind of ['embedded', 'remote'] as const) {
  describe(`tubekit mcp over stdio [${kind}]`, () => {
    let cli: CliSandbox;
    let serve: Awaited<ReturnType<typeof startServe>> | undefined;
    let env: Record<string, string>;
    let key = '';
    let reference: Service;
    let session: McpSession;

    beforeAll(async () => {
      cli = cliSandbox();
      env = { ...cli.env };
      if (kind === 'remote') {
        key = (await cli.run(['engine', 'keys', 'create', '--scope', 'generations'])).stdout.trim();
        serve = await startServe(cli);
        env = { ...env, TUBEKIT_BASE_URL: serve.url, TUBEKIT_API_KEY: key };
        reference = new RemoteService({ baseUrl: serve.url, apiKey: key, maxRetries: 0 });
      } else {
        reference = await LocalService.open({ dataDir: cli.dataDir, jobRunner: { mode: 'none' } });
      }
      session = await startMcp(['mcp', '--verbose'], env);
    }, 60_000);

    afterEach(() => {
      // Whatever the test did, stdout carried JSON-RPC and nothing else.
      expect(nonJsonRpcLines(session.transport)).toEqual([]);
    });

    afterAll(async () => {
      await session?.close();
      await reference?.close();
      await serve?.stop();
      cli.cleanup();
    });

    it('lists one tool per route of the table, each with a valid JSON Schema for its input', async () => {
      const { tools } = await session.client.listTools();
      const covered = new Set(tools.map((tool) => ROUTE_OF_TOOL.get(tool.name)).filter(Boolean));
      expect([...covered].sort()).toEqual([...routeNames].sort());
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['start_video_analysis', 'get_video_analysis_result', 'download_video', 'resolve_url', 'generate_tts', 'health_check', 'get_job', 'wait_for_job']));
      const ajv = new Ajv2020({ strict: false });
      for (const tool of tools) {
        expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
        expect(tool.inputSchema.type, tool.name).toBe('object');
        expect(tool.description, tool.name).toMatch(/Errors .*\nExample: \{/s);
      }
      const clone = tools.find((tool) => tool.name === 'clone_stealth_voice')!;
      expect((clone.inputSchema.properties as Record<string, { type: string; description: string }>).audioFile).toMatchObject({ type: 'string', description: expect.stringMatching(/path on disk .* URL; at most 15 MB/) });
      expect(tools.find((tool) => tool.name === 'delete_folder')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      expect(tools.find((tool) => tool.name === 'list_folders')!.annotations).toMatchObject({ readOnlyHint: true });
    });

    it('answers and refuses exactly as each route does', async () => {
      for (const [name, args] of SAME_AS_ROUTE) {
        const expected = await direct(reference, ROUTE_OF_TOOL.get(name)!, args);
        const result = await call(session, name, args);
        if (expected.error) {
          expect(toolError(result), name).toMatchObject(expected.error);
          expect((result.content[0] as { text: string }).text, name).toContain(expected.error.message);
        } else {
          expect(result.isError, name).toBeFalsy();
          expect(result.structuredContent, name).toEqual(expected.body);
          expect(JSON.parse((result.content[0] as { text: string }).text), name).toEqual(expected.body);
        }
      }
    });

    it('changes what the route changes, and a repeat fails as the route fails', async () => {
      const created = await call(session, 'create_folder', { name: 'Cooking' });
      expect(created.structuredContent).toMatchObject({ success: true, folder: { name: 'Cooking' } });
      const again = await call(session, 'create_folder', { name: 'Cooking' });
      expect(toolError(again)).toMatchObject((await direct(reference, 'folders.create', { name: 'Cooking' })).error!);
      expect(toolError(again)).toMatchObject({ status: 409, code: 'conflict' });
      expect((await call(session, 'list_folders')).structuredContent).toEqual(await reference.call('folders.list', {}));
    });

    it('takes a voice sample as a path on disk or a URL, and names a file it cannot read', async () => {
      const sample = path.join(cli.dataDir, '..', 'me.wav');
      fs.writeFileSync(sample, wavSample(6));
      const fromDisk = await call(session, 'clone_stealth_voice', { displayName: 'From disk', audioFile: sample });
      expect(fromDisk.structuredContent).toMatchObject({ success: true, voice: { name: 'From disk' } });

      // A URL of this machine is never fetched (the public-hosts-only reader); a data: URL carries the file inline.
      const files = http.createServer((_, response) => response.end(fs.readFileSync(sample)));
      await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/host.wav`;
        const fromUrl = await call(session, 'clone_stealth_voice', { displayName: 'From URL', audioFile: url });
        expect(toolError(fromUrl)).toMatchObject({ code: 'usage', message: expect.stringMatching(/^Cannot fetch http:\/\/127\.0\.0\.1:\d+\/host\.wav: a port other than the default/) });
      } finally {
        files.close();
      }
      const inline = await call(session, 'clone_stealth_voice', { displayName: 'Inline', audioFile: `data:audio/wav;base64,${fs.readFileSync(sample).toString('base64')}` });
      expect(inline.structuredContent).toMatchObject({ success: true, voice: { name: 'Inline' } });

      const missing = await call(session, 'clone_stealth_voice', { displayName: 'Missing', audioFile: '/nowhere/me.wav' });
      expect(toolError(missing)).toMatchObject({ status: null, code: 'usage', message: 'Cannot read the file /nowhere/me.wav: no such file.' });
    });

    it('submits a generation at once and waits for it with progress, the files as resource links', async () => {
      const submitted = await call(session, 'generate_tts', { script: 'Hello from the agent.', voice_id: 'espeak-en-us' });
      expect(submitted.structuredContent).toMatchObject({ success: true, status: 'pending' });
      const jobId = submitted.structuredContent!.job_id as string;
      const progress: Array<{ progress: number; total?: number; message?: string }> = [];
      const waited = (await session.client.callTool({ name: 'wait_for_job', arguments: { job_id: jobId, timeout_seconds: 60 } }, { onprogress: (update) => progress.push(update) })) as ToolResult;
      expect(waited.isError).toBeFalsy();
      expect(waited.structuredContent).toMatchObject({ job_id: jobId, status: 'completed' });
      // The first says the wait began; later ones carry the job's state after each poll. (The last,
      // sent just before the result, can be dropped by the MCP client SDK when both arrive in one read.)
      expect(progress[0]).toMatchObject({ progress: 0, total: 60, message: 'waiting' });
      for (const update of progress.slice(1)) expect(update).toMatchObject({ total: 60, message: expect.stringMatching(/^(pending|processing|completed)\b/) });

      const audioUrl = waited.structuredContent!.audio_url as string;
      const links = waited.content.filter((block) => block.type === 'resource_link');
      const audio = links.find((link) => link.uri === audioUrl)!;
      const audioBytes = await readAll(reference, audioUrl);
      expect(audio).toMatchObject({ mimeType: 'audio/mpeg', size: audioBytes.length });
      const srt = waited.content.find((block) => block.type === 'resource') as { resource: { uri: string; mimeType: string; text: string } };
      expect(srt.resource).toMatchObject({ uri: waited.structuredContent!.transcript_url, mimeType: 'application/x-subrip' });
      expect(srt.resource.text).toBe((await readAll(reference, srt.resource.uri)).toString('utf8'));

      // get_job polls the same job, the same way.
      expect((await call(session, 'get_job', { job_id: jobId, wait_seconds: 1 })).structuredContent).toEqual(await reference.call('jobs.status', { job_id: jobId }));
    });

    it('waits for a channel job by its number', async () => {
      const submitted = await call(session, 'process_channel', { channel: '@honestrunning', type: 'longform' });
      const jobId = submitted.structuredContent!.job_id as number;
      const waited = await call(session, 'wait_for_job', { job_id: jobId, timeout_seconds: 60 });
      expect(waited.structuredContent).toMatchObject({ id: jobId, status: 'completed' });
      expect(toolError(await call(session, 'wait_for_job', { job_id: 'gen_nope', timeout_seconds: 1 }))).toMatchObject({ status: 404, code: 'not_found' });
      expect(toolError(await call(session, 'wait_for_job', { job_id: jobId, timeout_seconds: 0 }))).toMatchObject({ status: 400, message: expect.stringMatching(/timeout_seconds/) });
    });

    if (kind === 'remote') {
      it('words a refused key as the CLI prints it, naming where the key came from', async () => {
        const badKey = { ...env, TUBEKIT_API_KEY: 'tk_notakeyofthisservice' };
        const refused = await startMcp(['mcp'], badKey);
        try {
          const result = await call(refused, 'list_folders');
          expect(toolError(result)).toMatchObject({ status: 401, code: 'unauthorized', hint: expect.stringMatching(/^The key came from: environment\./) });
          const cliRun = await cli.run(['folders', 'list'], { env: badKey });
          expect(cliRun.exitCode).not.toBe(0);
          expect(cliRun.stderr).toBe(`error: ${(result.content[0] as { text: string }).text}\n`);
          expect(JSON.stringify(result)).not.toContain('notakeyofthisservice');
        } finally {
          await refused.close();
        }
      });

      it('never shows the API key, in results or in the --verbose log', async () => {
        await call(session, 'list_folders');
        await call(session, 'get_job', { job_id: key });
        expect(session.transport.stdoutLines.join('\n')).not.toContain(key);
        expect(session.transport.stderr).toContain('[trace] mcp list_folders → ok');
        expect(session.transport.stderr).not.toContain(key);
      });
    }
  });
}

async function readAll(service: Service, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await service.fetchFile(url)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('tubekit mcp: what it exposes', () => {
  const cli = cliSandbox();
  afterAll(() => cli.cleanup());

  async function listedTools(args: string[], env: Record<string, string> = {}) {
    const session = await startMcp(['mcp', ...args], { ...cli.env, ...env });
    try {
      return (await session.client.listTools()).tools;
    } finally {
      expect(await session.close()).toBe(0);
    }
  }

  it('--read-only exposes only the tools that change nothing', async () => {
    const tools = await listedTools(['--read-only']);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['list_folders', 'search_terminated_channels', 'resolve_channel', 'get_job', 'wait_for_job']));
    expect(names).not.toContain('create_folder');
    expect(names).not.toContain('generate_tts');
  });

  it('--toolsets and TUBEKIT_MCP_TOOLSETS keep only their toolsets (and health and jobs)', async () => {
    const research = (await listedTools(['--toolsets', 'research'])).map((tool) => tool.name);
    expect(research.sort()).toEqual(['check_ad_monetization', 'check_channel_cms', 'check_external_monetization', 'get_job', 'get_terminated_channel', 'get_video_analysis_result', 'health_check', 'list_cms_networks', 'list_jobs', 'search_terminated_channels', 'wait_for_job']);
    const fromEnv = (await listedTools([], { TUBEKIT_MCP_TOOLSETS: 'voices,collabs' })).map((tool) => tool.name);
    expect(fromEnv).toContain('generate_tts');
    expect(fromEnv).toContain('collabs_feed');
    expect(fromEnv).not.toContain('list_folders');
  });

  it('refuses a tool it does not expose, and an unknown toolset before starting', async () => {
    const session = await startMcp(['mcp', '--read-only'], cli.env);
    await expect(session.client.callTool({ name: 'create_folder', arguments: { name: 'x' } })).rejects.toThrow(/create_folder/);
    await session.close();
    const bad = await cli.run(['mcp', '--toolsets', 'voices,videos']);
    expect(bad).toMatchObject({ exitCode: 2, stdout: '' });
    expect(bad.stderr).toContain('error: --toolsets names no toolset "videos".');
  });

  it('--list-tools prints the tool table and exits', async () => {
    const table = await cli.run(['mcp', '--list-tools', '--toolsets', 'workspace', '--read-only']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout.split('\n')).toContain('list_folders\tworkspace\tyes\tYour folders');
    expect(table.stdout).not.toContain('create_folder');
    const json = JSON.parse((await cli.run(['--json', 'mcp', '--list-tools'])).stdout) as Array<{ name: string; toolset: string; read_only: boolean; summary: string }>;
    expect(json.find((row) => row.name === 'generate_tts')).toEqual({ name: 'generate_tts', toolset: 'voices', read_only: false, summary: 'Queue a text-to-speech generation' });
  });
});

describe('tubekit mcp: ending', () => {
  const cli = cliSandbox();
  afterAll(() => cli.cleanup());

  function workersAndLeases() {
    const engine = Engine.open({ dataDir: cli.dataDir, jobRunner: { mode: 'none' } });
    try {
      return {
        workers: engine.db.prepare('SELECT COUNT(*) AS n FROM job_workers').get() as { n: number },
        leased: engine.db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE lease_owner IS NOT NULL").get() as { n: number },
      };
    } finally {
      engine.close();
    }
  }

  it('exits 0 when the client closes stdin', async () => {
    const session = await startMcp(['mcp'], cli.env);
    await session.client.listTools();
    expect(await session.close()).toBe(0);
    expect(nonJsonRpcLines(session.transport)).toEqual([]);
  });

  it('exits 0 on Ctrl-C in the middle of a job, leaving no worker and no lease behind', async () => {
    const session = await startMcp(['mcp'], cli.env);
    const script = 'A long story told slowly, sentence after sentence. '.repeat(400);
    const submitted = (await session.client.callTool({ name: 'generate_tts', arguments: { script, voice_id: 'espeak-en-us' } })) as ToolResult;
    const jobId = submitted.structuredContent!.job_id as string;
    let status = 'pending';
    for (const deadline = Date.now() + 30_000; status === 'pending' && Date.now() < deadline; ) {
      status = ((await session.client.callTool({ name: 'get_job', arguments: { job_id: jobId } })) as ToolResult).structuredContent!.status as string;
      if (status === 'pending') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe('processing');
    // A wait in flight, too: it is aborted, not left holding the process open.
    const waiting = session.client.callTool({ name: 'wait_for_job', arguments: { job_id: jobId, timeout_seconds: 600 } }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 200));
    session.child.kill('SIGINT');
    expect(await session.exited).toBe(0);
    await waiting;
    expect(nonJsonRpcLines(session.transport)).toEqual([]);
    expect(workersAndLeases()).toEqual({ workers: { n: 0 }, leased: { n: 0 } });
  }, 90_000);
});

describe('tubekit mcp --transport http', () => {
  const cli = cliSandbox();
  afterAll(() => cli.cleanup());

  /** Starts the HTTP server; resolves with its URL from stdout. */
  async function startHttp(args: string[], env: Record<string, string> = {}) {
    const child = cli.spawn(['mcp', '--transport', 'http', '--port', '0', ...args], { env });
    const url = await new Promise<string>((resolve, reject) => {
      let seen = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('\n')) resolve(seen.trim());
      });
      child.once('exit', (code) => reject(new Error(`mcp exited early with ${code}`)));
    });
    return {
      url,
      async stop() {
        child.kill('SIGINT');
        return (await child).exitCode;
      },
    };
  }

  it('serves the same tools on 127.0.0.1 to clients with the key, and refuses a foreign Host', async () => {
    const refused = await cli.run(['mcp', '--transport', 'http', '--port', '0']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--transport http needs an API key for clients to send, even on 127\.0\.0\.1/);
    const key = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
    const server = await startHttp([], { TUBEKIT_API_KEY: key });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const anonymous = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    const client = new Client({ name: 'tubekit-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    // Over HTTP a path on disk is never read.
    const fromDisk = (await client.callTool({ name: 'clone_stealth_voice', arguments: { displayName: 'Disk', audioFile: '/etc/hostname' } })) as ToolResult;
    expect(toolError(fromDisk)).toMatchObject({ code: 'usage', message: expect.stringMatching(/^A path on disk is read only over stdio/) });
    expect((await client.listTools()).tools.length).toBeGreaterThan(routeNames.length);
    const created = (await client.callTool({ name: 'create_folder', arguments: { name: 'Over HTTP' } })) as ToolResult;
    expect(created.structuredContent).toMatchObject({ success: true, folder: { name: 'Over HTTP' } });
    expect(toolError((await client.callTool({ name: 'create_folder', arguments: { name: 'Over HTTP' } })) as ToolResult)).toMatchObject({ status: 409 });
    // A wait streams its progress on the request's own response.
    const submitted = (await client.callTool({ name: 'generate_tts', arguments: { script: 'Over HTTP.', voice_id: 'espeak-en-us' } })) as ToolResult;
    const progress: unknown[] = [];
    const waited = (await client.callTool({ name: 'wait_for_job', arguments: { job_id: submitted.structuredContent!.job_id, timeout_seconds: 60 } }, { onprogress: (update) => progress.push(update) })) as ToolResult;
    expect(waited.structuredContent).toMatchObject({ status: 'completed' });
    expect(progress.length).toBeGreaterThan(0);
    await client.close();

    // fetch() will not send another Host; node:http will, as a DNS-rebinding page's request would arrive.
    const { port } = new URL(server.url);
    const rebinding = await new Promise<number>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${port}`, 'content-type': 'application/json' } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.once('error', reject);
      request.end('{}');
    });
    expect(rebinding).toBe(403);
    const taken = await cli.run(['mcp', '--transport', 'http', '--port', port], { env: { TUBEKIT_API_KEY: key } });
    expect(taken).toMatchObject({ exitCode: 1, stdout: '' });
    expect(taken.stderr).toContain(`error: Port ${port} on 127.0.0.1 is already in use.`);
    expect(await server.stop()).toBe(0);
  });

  it('binds beyond loopback only with a key, and then only answers requests that carry it', async () => {
    const refused = await cli.run(['mcp', '--transport', 'http', '--host', '0.0.0.0', '--port', '0']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--host 0\.0\.0\.0 serves the tools beyond this machine/);

    const key = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
    const server = await startHttp(['--host', '0.0.0.0'], { TUBEKIT_API_KEY: key });
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    const anonymous = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain(key);
    const client = new Client({ name: 'tubekit-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    expect(((await client.callTool({ name: 'list_folders', arguments: {} })) as ToolResult).structuredContent).toMatchObject({ success: true });
    await client.close();
    expect(await server.stop()).toBe(0);
  });
});
