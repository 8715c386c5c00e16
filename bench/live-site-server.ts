/**
 * A child process of the live bench: the made-up site (test/support/live-site.ts) with N channels,
 * each with two uploads, answered by the fixture server on 127.0.0.1 — in its own process, so the
 * bench's memory figures are the engine's alone. Prints its origin, then serves until stdin closes.
 */
import { LiveSite } from '../test/support/live-site.js';
import { startFixtureServer } from '../test/support/platform-fixture-server.js';
import { benchChannelId } from './live-bench-ids.js';


const count = Number(process.argv[2] ?? 1000);
const site = new LiveSite(Date.now);
for (let n = 0; n < count; n++) {
  const id = benchChannelId(n);
  site.add({
    id,
    handle: `@bench${n}`,
    title: `Bench channel ${n}`,
    subscribers: 10_000 + n,
    views: 1_000_000 + n,
    videoCount: 100,
    joined: '2019-01-01',
    uploads: [0, 1].map((k) => ({ id: `bv${String(n).padStart(6, '0')}${k}000`.slice(0, 11), title: `Upload ${k} of ${n}`, views: 1000 * (k + 1), publishedMs: Date.now() - (k + 1) * 86_400_000, channels: [id], language: 'en' })),
  });
}
const server = await startFixtureServer(site.exchanges());
// The bench counts requests from here, not a list of every one: memory stays flat over a long run.
server.seen.length = 0;
setInterval(() => (server.seen.length = 0), 1_000).unref();
process.stdout.write(`${server.origin}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
