/**
 * The server side of the fleet serve benchmark, in a process of its own (no shared event loop with
 * the load generator): `tubekit serve`'s server on the store named by argv[3] (a postgres:// URL, or
 * nothing for the data dir's SQLite file) and a bare node:http server answering GET /api/folders
 * with the same bytes. Prints one JSON line: both URLs and the key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openEngine } from '../src/engine/open-engine.js';
import { parseStoreLocation } from '../src/engine/store/store-location.js';
import { startServer } from '../src/server/serve.js';

const [dataDir, storeUrl] = process.argv.slice(2);
const engine = await openEngine({ dataDir: dataDir!, store: parseStoreLocation(storeUrl), storeOpening: { migrations: 'apply' } });
const key = (await engine.identity.createUserWithKey('ultimate', [])).key;
const server = await startServer({ engine, port: 0, alertsEveryMinutes: 0 });
const answer = await fetch(`${server.url}/api/folders`, { headers: { authorization: `Bearer ${key}` } });
const body = await answer.text();
const bare = http.createServer((_request, response) => {
  response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));

/**
 * On PostgreSQL, a folder of 5 channels whose figures come from the sample world, and a second
 * server on the same store (another data dir) that reads the fleet's world row only once and then
 * trusts its notifications: what the row read before each read of the world costs, side by side.
 */
let world: { checkedUrl: string; rememberedUrl: string; folderId: number } | undefined;
const closers: Array<() => Promise<void>> = [];
if (storeUrl) {
  const { LocalService } = await import('../src/engine/local-service.js');
  const service = new LocalService(engine, key);
  const channels = (await engine.platform()).simulation!.sampleChannels(5).map((channel) => channel.channel_id);
  const folderId = (await service.call('folders.create', { name: 'Bench' })).folder.id;
  await service.call('saved.add', { channel_ids: channels, folder_id: folderId });
  const rememberedEngine = await openEngine({ dataDir: `${dataDir}-remembered`, store: parseStoreLocation(storeUrl) });
  await rememberedEngine.platform();
  const shared = await (rememberedEngine as unknown as { sharedWorld: Promise<{ opened(): Promise<unknown> }> }).sharedWorld;
  const opened = await shared.opened();
  shared.opened = () => Promise.resolve(opened);
  const remembered = await startServer({ engine: rememberedEngine, port: 0, alertsEveryMinutes: 0 });
  world = { checkedUrl: server.url, rememberedUrl: remembered.url, folderId };
  closers.push(() => remembered.close().then(() => rememberedEngine.close()));
}
process.stdout.write(`${JSON.stringify({ serveUrl: server.url, bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`, key, world })}\n`);
process.on('SIGTERM', () => {
  bare.close();
  void Promise.all(closers.map((close) => close()))
    .then(() => server.close())
    .then(() => engine.close())
    .then(() => process.exit(0));
});
