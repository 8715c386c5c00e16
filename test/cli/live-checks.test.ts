/** `tubekit monetized` and `tubekit cms` on a live data dir: the signals printed as rows, `--json` the body. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli.js';
import { siteExchanges } from '../support/live-check-site.js';
import { type FixtureServer, startFixtureServer } from '../support/platform-fixture-server.js';

const ADS = 'UCliveCliAdsChannel00001';
const TOPIC = 'UCliveCliNovaLightsTopic';

let cli: CliSandbox;
let server: FixtureServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startFixtureServer(
    siteExchanges([
      {
        id: ADS,
        title: 'Cli Ads',
        handle: '@cliads',
        videos: [
          { id: 'cliVideo001', title: 'One', ago: '1 day ago', ads: 'yt_ad' },
          { id: 'cliVideo002', title: 'Two', ago: '2 days ago', ads: 'none' },
        ],
      },
      {
        id: TOPIC,
        title: 'Nova Lights - Topic',
        handle: '@novalights-topic',
        videos: [{ id: 'cliTrack001', title: 'Harbour', ago: '1 week ago', description: 'Provided to YouTube by Lanternfish Distribution\n\nHarbour · Nova Lights' }],
      },
    ]),
  );
  env = { TUBEKIT_PLATFORM_ORIGIN: server.origin, TUBEKIT_PLATFORM_RATE: '100' };
  cli = cliSandbox();
  expect((await cli.run(['engine', 'platform', 'live'])).exitCode).toBe(0);
});
afterAll(async () => {
  cli.cleanup();
  await server.close();
});

it('prints the ad verdict with one `signal` row per thing a page showed; --json is the body', async () => {
  const piped = await cli.run(['monetized', ADS], { env });
  expect(piped.exitCode).toBe(0);
  const lines = piped.stdout.trimEnd().split('\n');
  expect(lines).toContain('monetized\ttrue');
  expect(lines.filter((line) => line.startsWith('signal\t'))).toEqual([
    "signal\tyt_ad\tThe player answer's tracking parameters say ads were served to this request (yt_ad=1).\thttps://www.youtube.com/watch?v=cliVideo001",
    'signal\tno_ads\tThe player answer says no ads were served to this request (yt_ad=0) and schedules none.\thttps://www.youtube.com/watch?v=cliVideo002',
  ]);
  const json = JSON.parse((await cli.run(['monetized', ADS, '--json'], { env })).stdout);
  expect(json).toMatchObject({ monetized: true, previous: { monetized: true }, signals: [{ id: 'yt_ad' }, { id: 'no_ads' }] });
});

it('prints the managed-network verdict with its signals', async () => {
  const piped = await cli.run(['cms', TOPIC], { env });
  expect(piped.exitCode).toBe(0);
  const lines = piped.stdout.trimEnd().split('\n');
  expect(lines).toContain('status\tmanaged');
  expect(lines).toContain('owner\tLanternfish Distribution');
  expect(lines.filter((line) => line.startsWith('signal\t')).map((line) => line.split('\t')[1])).toEqual(['topic_channel', 'art_track']);
  expect(server.unmatched).toEqual([]);
});
