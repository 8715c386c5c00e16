#!/usr/bin/env node
// Replays the real recordings of the site (the directory given as the first argument, else
// TUBEKIT_RECORDINGS) through the live platform adapter and prints what it parsed. A local check of
// the parsers against the site's real answers, not a test: the recordings are not part of the project.
//
//   npx tsc -p tsconfig.json && node scripts/replay-recordings.mjs <recordings-dir>
//
// A server on 127.0.0.1 answers each request whose key fields match a recording (see SOURCES.md
// there) and 404 to anything else; the adapter reaches it through TUBEKIT_PLATFORM_ORIGIN.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { embeddedJsonText, recordedBody, recordingsDir as dir } from './recordings.mjs';

const { openLivePlatform } = await import('../dist/src/engine/platform/live/open.js');
const { DEFAULT_NETWORK } = await import('../dist/src/engine/platform/live/network-options.js');

const npeBody = recordedBody;
const embedded = embeddedJsonText;

const watchHtml = fs.readFileSync(path.join(dir, 'yta-watch-GJLlxj_dtq8.html'), 'utf8');
const about = fs.readFileSync(path.join(dir, 'ytbcli-about-rickastley.json'), 'utf8');
/** The continuation a recorded request sent (NPE keeps the request's body beside the response). */
const tokenIn = (file) => {
  const { dataToSend } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')).request;
  return JSON.parse(Buffer.from(dataToSend).toString('utf8')).continuation;
};
const headerTokens = new Set();
for (const file of ['npe-browse-creativecommons-videos.json', 'npe-browse-gronkh-videos.json', 'npe-browse-doobydobap-shorts.json']) {
  const header = JSON.stringify(JSON.parse(npeBody(file)).header ?? {});
  for (const match of header.matchAll(/"token"\s*:\s*"([^"]+)"/g)) headerTokens.add(match[1]);
}

// [method, path, key fields, client name or null, body]
const routes = [
  ['POST', '/youtubei/v1/navigation/resolve_url', { url: 'https://www.youtube.com/@Gronkh' }, null, () => npeBody('npe-resolve-gronkh.json')],
  ['POST', '/youtubei/v1/navigation/resolve_url', { url: 'https://www.youtube.com/user/creativecommons' }, null, () => npeBody('npe-resolve-creativecommons.json')],
  ['POST', '/youtubei/v1/browse', { browseId: 'UCTwECeGqMZee77BjdoYtI2Q' }, null, () => npeBody('npe-browse-creativecommons-videos.json')],
  ['POST', '/youtubei/v1/browse', { browseId: 'UCTwECeGqMZee77BjdoYtI2Q', params: 'EgZ2aWRlb3PyBgQKAjoA' }, null, () => npeBody('npe-browse-creativecommons-videos.json')],
  ['POST', '/youtubei/v1/browse', { continuation: tokenIn('npe-browse-creativecommons-videos-cont.json') }, null, () => npeBody('npe-browse-creativecommons-videos-cont.json')],
  ['POST', '/youtubei/v1/browse', { browseId: 'UCYJ61XIK64sp6ZFFS8sctxw' }, null, () => npeBody('npe-browse-gronkh-videos.json')],
  ['POST', '/youtubei/v1/browse', { browseId: 'UCYJ61XIK64sp6ZFFS8sctxw', params: 'EgZ2aWRlb3PyBgQKAjoA' }, null, () => npeBody('npe-browse-gronkh-videos.json')],
  ['POST', '/youtubei/v1/browse', { browseId: 'UCh8gHdtzO2tXd593_bjErWg' }, null, () => npeBody('npe-browse-doobydobap-shorts.json')],
  ['POST', '/youtubei/v1/browse', { browseId: 'UCh8gHdtzO2tXd593_bjErWg', params: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D' }, null, () => npeBody('npe-browse-doobydobap-shorts.json')],
  ['POST', '/youtubei/v1/browse', { continuation: tokenIn('npe-browse-doobydobap-shorts-cont.json') }, null, () => npeBody('npe-browse-doobydobap-shorts-cont.json')],
  ...[...headerTokens].map((token) => ['POST', '/youtubei/v1/browse', { continuation: token }, null, () => about]),
  ['POST', '/youtubei/v1/player', { videoId: 'GJLlxj_dtq8' }, 'WEB', () => embedded(watchHtml, 'ytInitialPlayerResponse')],
  ['POST', '/youtubei/v1/next', { videoId: 'GJLlxj_dtq8' }, null, () => embedded(watchHtml, 'ytInitialData')],
  ['POST', '/youtubei/v1/player', { videoId: 'M4gD1WSo5mA' }, 'WEB', () => npeBody('npe-player-web-fields-M4gD1WSo5mA.json')],
  ['POST', '/youtubei/v1/next', { videoId: 'M4gD1WSo5mA' }, null, () => npeBody('npe-next-web-M4gD1WSo5mA.json')],
];

const KEYS = ['browseId', 'params', 'continuation', 'videoId', 'url'];
const unmatched = [];
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const url = new URL(req.url, 'http://replay');
    if (req.method === 'GET' && url.pathname === '/api/timedtext') {
      res.writeHead(200, { 'content-type': 'text/xml' }).end(fs.readFileSync(path.join(dir, 'yta-transcript-sample.xml')));
      return;
    }
    let body = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
    } catch {}
    const key = Object.fromEntries(KEYS.filter((name) => typeof body[name] === 'string').map((name) => [name, body[name]]));
    const client = body.context?.client?.clientName;
    const route = routes.find(([method, pathname, fields, clientName]) =>
      method === req.method && pathname === url.pathname && (!clientName || clientName === client) &&
      Object.keys(fields).length === Object.keys(key).length && Object.entries(fields).every(([name, value]) => key[name] === value));
    if (!route) {
      unmatched.push(`${req.method} ${url.pathname} ${JSON.stringify(key).slice(0, 120)}`);
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(route[4]());
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-replay-'));
const platform = await openLivePlatform({ dataDir, network: { ...DEFAULT_NETWORK, origin, requestsPerSecond: 1000 } });

let failures = 0;
async function show(label, read) {
  try {
    const value = await read();
    console.log(`\n## ${label}\n${JSON.stringify(value, null, 1).slice(0, 1600)}`);
  } catch (error) {
    failures++;
    console.log(`\n## ${label}\nFAILED: ${error.message}${error.hint ? `\n  hint: ${error.hint}` : ''}`);
  }
}
const brief = (videos) => ({ count: videos.length, first: videos.slice(0, 3), last: videos.at(-1) });

await show('resolve @Gronkh', () => platform.resolveChannelId('@Gronkh'));
await show('resolve https://www.youtube.com/user/creativecommons', () => platform.resolveChannelId('https://www.youtube.com/user/creativecommons'));
await show('resolve video URL https://youtu.be/GJLlxj_dtq8', () => platform.resolveChannelId('https://youtu.be/GJLlxj_dtq8'));
await show('channel UCTwECeGqMZee77BjdoYtI2Q (about: Rick Astley stand-in)', () => platform.channelById('UCTwECeGqMZee77BjdoYtI2Q'));
await show('channel UCYJ61XIK64sp6ZFFS8sctxw (Gronkh)', () => platform.channelById('UCYJ61XIK64sp6ZFFS8sctxw'));
await show('Creative Commons videos, limit 45 (one continuation)', async () => brief(await platform.channelVideos('UCTwECeGqMZee77BjdoYtI2Q', { kind: 'long', limit: 45 })));
await show('Gronkh videos, limit 5', async () => brief(await platform.channelVideos('UCYJ61XIK64sp6ZFFS8sctxw', { kind: 'long', limit: 5 })));
await show('Doobydobap shorts, limit 60 (one continuation)', async () => brief(await platform.channelVideos('UCh8gHdtzO2tXd593_bjErWg', { kind: 'short', limit: 60 })));
await show('video GJLlxj_dtq8 (WEB player from the 2025 watch page + next)', () => platform.videoById('GJLlxj_dtq8'));
await show('video M4gD1WSo5mA (WEB player with $fields + next)', () => platform.videoById('M4gD1WSo5mA'));
await show('transcript GJLlxj_dtq8 (legacy srv1 sample)', async () => {
  const transcript = await platform.transcript('GJLlxj_dtq8');
  return transcript && { ...transcript, cues: transcript.cues.slice(0, 3), cue_count: transcript.cues.length };
});

console.log(`\nunmatched requests (answered 404): ${unmatched.length ? `\n  ${unmatched.join('\n  ')}` : 'none'}`);
console.log(`reads failed: ${failures}`);
server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
