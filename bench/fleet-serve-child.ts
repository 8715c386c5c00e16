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
process.stdout.write(`${JSON.stringify({ serveUrl: server.url, bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`, key })}\n`);
process.on('SIGTERM', () => {
  bare.close();
  void server.close().then(() => engine.close()).then(() => process.exit(0));
});
