/**
 * The server side of the serve benchmarks, in a process of its own so its memory can be sampled
 * and it does not share an event loop with the load generator. Starts `tubekit serve`'s server on
 * a data dir and a bare node:http server answering each benched path with the same body, then
 * prints one JSON line: both URLs, the key, and the paths of the mixed load.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Engine } from '../src/engine/engine.js';
import { startServer } from '../src/server/serve.js';

const dataDir = process.argv[2]!;
const paths = ['/api/folders', '/api/health'];
const engine = Engine.open({ dataDir });
const key = (await engine.identity.createUserWithKey('ultimate', [])).key;
const server = await startServer({ engine, port: 0 });

// The bare server answers exactly what serve answered, status included.
const answers = new Map<string, { status: number; body: string }>();
for (const url of paths) {
  const response = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
  answers.set(`ok ${url}`, { status: response.status, body: await response.text() });
}
const denied = await fetch(`${server.url}/api/folders`, { headers: { authorization: 'Bearer not-a-key' } });
answers.set('denied', { status: denied.status, body: await denied.text() });

// A realistic mix of reads over several routes (bench/serve.ts loads them together), each warmed
// once: the first call builds the world and the collab and growth indexes.
const auth = { authorization: `Bearer ${key}` };
const read = async (url: string) => {
  const response = await fetch(`${server.url}${url}`, { headers: auth });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
};
const feed = (await read('/api/collabs/feed?days=30')) as { videos: Array<{ host: { channel_id: string } }> };
const mixed = [
  '/api/health',
  '/api/folders',
  '/api/collabs/feed?days=30',
  '/api/collabs/feed?days=7&sort=views&page=2',
  '/api/collabs/fastest-growing',
  `/api/collabs/channel/${feed.videos[0]!.host.channel_id}`,
  '/api/terminated-channels?q=gaming',
  '/api/cms-networks',
  '/api/openapi.json',
];
for (const url of mixed) await read(url);

const bare = http.createServer((request, response) => {
  const answer = request.headers.authorization === `Bearer ${key}` ? answers.get(`ok ${request.url}`) : answers.get('denied');
  response.writeHead(answer?.status ?? 404, { 'content-type': 'application/json; charset=utf-8' }).end(answer?.body ?? '{}');
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
process.stdout.write(`${JSON.stringify({ serveUrl: server.url, bareUrl, key, mixed, statuses: Object.fromEntries([...answers].map(([name, { status }]) => [name, status])) })}\n`);

process.on('SIGTERM', () => {
  void server.close().then(() => {
    bare.close();
    engine.close();
    process.exit(0);
  });
});
