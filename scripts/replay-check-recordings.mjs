#!/usr/bin/env node
// Checks the channel checks' parsers against the real recordings of the site
// (the directory given as the first argument, else TUBEKIT_RECORDINGS): ads served on a
// watch page, the Join button, the music section, playability, links of the about panel, and the
// external-monetization classifier on real descriptions. A local check, not a test: the recordings
// are not part of the project. Prints each expectation with ✓ or ✗; exits 1 when one fails.
//
//   npm run build && node scripts/replay-check-recordings.mjs <recordings-dir>
import fs from 'node:fs';
import path from 'node:path';
import { embeddedJsonText, recordedBody, recordingsDir as dir } from './recordings.mjs';

const live = (file) => import(`../dist/src/engine/platform/live/${file}`);
const checks = (file) => import(`../dist/src/engine/features/checks/${file}`);
const { adsServed, joinButton, musicSection, paidPromotion, playabilityOf, watchUrl } = await live('watch-signals.js');
const { adPageOf } = await live('ad-pages.js');
const { parseAboutView } = await live('about-view.js');
const { findOffers } = await checks('external/live-classifier.js');
const { providerOf } = await checks('live-network-judgement.js');

const read = (file) => fs.readFileSync(path.join(dir, file), 'utf8');
const npeBody = (file) => JSON.parse(recordedBody(file));

/** A JSON object embedded in the watch page (`ytInitialPlayerResponse = {...};`). */
const embedded = (html, name) => JSON.parse(embeddedJsonText(html, name));

let failures = 0;
function expect(label, actual, wanted) {
  const ok = JSON.stringify(actual) === JSON.stringify(wanted);
  if (!ok) failures++;
  console.log(`${ok ? '✓' : '✗'} ${label}: ${JSON.stringify(actual)}${ok ? '' : `  (wanted ${JSON.stringify(wanted)})`}`);
}

const DAVE2D = 'UCVYamHliCI9rw1tHR1xbkfw';
const html = read('yta-watch-GJLlxj_dtq8.html');
const webPlayer = embedded(html, 'ytInitialPlayerResponse');
const webNext = embedded(html, 'ytInitialData');
const androidPlayer = JSON.parse(read('yta-player-android-GJLlxj_dtq8.json'));
const visionPlayer = npeBody('npe-player-visionos-M4gD1WSo5mA.json');
const fieldsPlayer = npeBody('npe-player-web-fields-M4gD1WSo5mA.json');
const berkmanNext = npeBody('npe-next-web-M4gD1WSo5mA.json');
const url = watchUrl('GJLlxj_dtq8');

console.log('## Ads served (player answers)');
const web = adsServed(webPlayer, url);
expect('WEB watch page (2025): served', web.served, true);
expect('WEB watch page (2025): signals', web.signals.map((signal) => signal.id), ['yt_ad', 'ad_placements']);
expect('WEB watch page (2025): placement evidence', web.signals[1].evidence, 'The player answer schedules 1 ad placement (before the video).');
expect('ANDROID player: served (yt_ad=1, no placements for this client)', adsServed(androidPlayer, url).signals.map((signal) => signal.id), ['yt_ad']);
expect('VISIONOS player (no tracking parameters): does not say', adsServed(visionPlayer, url).served, null);
expect('WEB player with $fields (no responseContext): does not say', adsServed(fieldsPlayer, url).served, null);
for (const [name, player] of [['WEB', webPlayer], ['ANDROID', androidPlayer], ['VISIONOS', visionPlayer]]) expect(`${name} plays`, playabilityOf(player, url), { playable: true });
expect('WEB: no paid-promotion overlay', paidPromotion(webPlayer), false);

console.log('\n## Watch-next answers');
expect("Dave2D's owner block has the Join (membership) button", joinButton(webNext, DAVE2D), true);
expect('…and not for another channel id', joinButton(webNext, 'UCaaaaaaaaaaaaaaaaaaaaaa'), false);
expect('Berkman Klein lecture: no Join button', joinButton(berkmanNext, 'UCsdEbWEVd2XDm_JFVo1OFhA'), false);
expect('Dave2D: no music section', musicSection(webNext), null);
expect('Berkman Klein: no music section', musicSection(berkmanNext), null);
const page = adPageOf({ video_id: 'GJLlxj_dtq8', title: 'Surface Go Review', published_at: '2018-08-02T13:00:08Z' }, DAVE2D, webPlayer, webNext);
expect('the ad page of the watch page', [page.outcome, page.membership, page.signals.map((signal) => signal.id)], ['ads', true, ['yt_ad', 'ad_placements', 'join_button']]);

console.log('\n## The about panel (Rick Astley)');
const about = parseAboutView(JSON.parse(read('ytbcli-about-rickastley.json')));
expect('links: whole addresses from the redirects', about.links.slice(0, 3).map((link) => link.url), ['https://rickastley.lnk.to/Raindrops', 'https://www.rickastley.co.uk/', 'https://linktr.ee/rickastleynever']);
expect('a long link is whole', about.links.find((link) => link.title === 'Spotify').url.startsWith('https://open.spotify.com/user/rickastleyprofile/playlist/'), true);

console.log('\n## The external classifier on real pages');
const description = webPlayer.videoDetails.shortDescription;
expect('Dave2D: no art track', providerOf(description), null);
const pages = {
  channel_id: 'UCuAXFkgsw1L7xaCfnd5JJOw',
  channel_url: 'https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw/about',
  title: 'Rick Astley',
  description: about.description,
  links: about.links,
  official_artist: false,
  videos: [{ video_id: 'GJLlxj_dtq8', url, title: 'Surface Go Review', description, views: 1_856_109, published_at: '2018-08-02T13:00:08Z', paid_promotion: false, licensing: [] }],
  unread: [],
};
const offers = findOffers(pages);
expect('methods found', [...new Set(offers.findings.map((finding) => finding.method))], ['tickets', 'affiliate', 'membership']);
expect(
  'tickets: the link under "Tickets for summer shows…" and the sentence itself, in the channel description',
  offers.findings.filter((finding) => finding.method === 'tickets').map((finding) => [finding.place, finding.target?.href ?? finding.phrase]),
  [['about page', 'https://rickastley.co.uk/'], ['about page', 'Tickets for summer shows 2026 on sale now.']],
);
expect('affiliate: the amzn.to link and the disclosure', offers.findings.filter((finding) => finding.method === 'affiliate').map((finding) => finding.target?.host ?? finding.phrase), ['amzn.to', 'Purchases made from store links may give me some money.']);
expect('link hub', offers.hubs, ['https://linktr.ee/rickastleynever']);
expect('the video links out to an offer', [...offers.linkingVideos], ['GJLlxj_dtq8']);

console.log(`\n${failures === 0 ? 'all expectations hold' : `${failures} expectation(s) failed`}`);
process.exitCode = failures === 0 ? 0 : 1;
