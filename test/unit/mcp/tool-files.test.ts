/**
 * MCP file arguments: over stdio a path is read only when it names a regular file within the
 * route's bound (a pipe or /dev/zero is refused without reading); over HTTP no path is read at
 * all, only inline data: URLs and public https URLs through the public-hosts-only fetcher.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPublicFetcher } from '../../../src/engine/platform/live/outside-page.js';
import { DEFAULT_NETWORK } from '../../../src/engine/platform/live/network-options.js';
import { readFileArgument, type FileArgumentContext } from '../../../src/mcp/tool-files.js';

let dir: string;
let server: http.Server;
let origin: string;
const seen: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-mcp-files-'));
  server = http.createServer((request, response) => {
    seen.push(request.url ?? '');
    if (request.url === '/external/files.example/sample.wav') return void response.end('RIFF-sample');
    if (request.url === '/external/files.example/moved') return void response.writeHead(302, { location: 'https://127.0.0.1/secret' }).end();
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
});

function context(transport: 'stdio' | 'http', withOrigin = false): FileArgumentContext {
  const settings = { ...DEFAULT_NETWORK, requestsPerSecond: 1000, ...(withOrigin ? { origin } : {}) };
  return { transport, fetchPublic: () => createPublicFetcher(settings) };
}

const refusal = async (promise: Promise<unknown>) => ((await promise.then(() => undefined, (error: Error) => error)) as Error | undefined)?.message;

it('reads a regular file over stdio, and refuses a pipe, a device, a directory and an oversized file without reading them', async () => {
  const file = path.join(dir, 'me.wav');
  fs.writeFileSync(file, 'RIFF-local');
  expect(await readFileArgument(file, 100, context('stdio'))).toMatchObject({ filename: 'me.wav', data: Buffer.from('RIFF-local') });
  const fifo = path.join(dir, 'pipe.wav');
  execFileSync('mkfifo', [fifo]);
  const started = Date.now();
  expect(await refusal(readFileArgument(fifo, 100, context('stdio')))).toBe(`Cannot read the file ${fifo}: not a regular file.`);
  expect(Date.now() - started).toBeLessThan(2000);
  expect(await refusal(readFileArgument('/dev/zero', 100, context('stdio')))).toBe('Cannot read the file /dev/zero: not a regular file.');
  expect(await refusal(readFileArgument(dir, 100, context('stdio')))).toBe(`Cannot read the file ${dir}: not a regular file.`);
  const big = path.join(dir, 'big.wav');
  fs.writeFileSync(big, Buffer.alloc(3 * 1024 * 1024));
  expect(await refusal(readFileArgument(big, 1024 * 1024, context('stdio')))).toBe(`Cannot read the file ${big}: it is 3 MB, over the 1 MB limit.`);
  expect(await refusal(readFileArgument('/nowhere/me.wav', 100, context('stdio')))).toBe('Cannot read the file /nowhere/me.wav: no such file.');
});

it('reads no path over HTTP: inline data: URLs and public https URLs only', async () => {
  const file = path.join(dir, 'mine.wav');
  fs.writeFileSync(file, 'RIFF-local');
  expect(await refusal(readFileArgument(file, 100, context('http')))).toMatch(/^A path on disk is read only over stdio/);
  expect(await refusal(readFileArgument(`file://${file}`, 100, context('http')))).toMatch(/^A path on disk is read only over stdio/);
  const inline = await readFileArgument(`data:audio/wav;base64,${Buffer.from('RIFF-inline').toString('base64')}`, 100, context('http'));
  expect(inline).toMatchObject({ contentType: 'audio/wav', data: Buffer.from('RIFF-inline') });
  // Past the bound, one byte more than the limit goes to the route, which refuses it in its own words.
  const over = (await readFileArgument(`data:audio/wav;base64,${Buffer.alloc(1000).toString('base64')}`, 100, context('http'))) as { data: Buffer };
  expect(over.data.length).toBe(101);
  expect(await refusal(readFileArgument('http://files.example/sample.wav', 100, context('http', true)))).toMatch(/not an https URL/);
  expect(await refusal(readFileArgument(`${origin}/external/files.example/sample.wav`, 100, context('http')))).toMatch(/not an https URL|private network/);
  expect(await refusal(readFileArgument('https://127.0.0.1/secret', 100, context('http')))).toMatch(/an address of a private network \(127\.0\.0\.1\)/);
  expect(seen).toEqual([]);
  // A public URL goes through the fetcher (here, the origin override standing for the internet).
  expect(await readFileArgument('https://files.example/sample.wav', 100, context('http', true))).toMatchObject({ filename: 'sample.wav', data: Buffer.from('RIFF-sample') });
  // A redirect to this machine is judged again and refused.
  expect(await refusal(readFileArgument('https://files.example/moved', 100, context('http', true)))).toMatch(/private network/);
  expect(seen).toEqual(['/external/files.example/sample.wav', '/external/files.example/moved']);
});
