/**
 * `cms` and `monetized` on the built binary: cards and tab-separated output, --json bodies, exit
 * codes (caps, plans, flips, failures), one live check shared by two processes, the spinner and
 * Ctrl-C on a terminal, and the same commands through `serve`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { LocalService } from '../../src/engine/local-service.js';
import { adProfile } from '../../src/engine/platform/sample/ad-pages.js';
import type { WorldChannel } from '../../src/engine/platform/sample/types.js';
import { checkFixtures, setCheckWork, type CheckFixtures } from '../support/check-fixtures.js';
import { cliSandbox, startServe, type CliSandbox } from '../support/cli.js';
import { hasScript, runOnTerminal } from '../support/terminal.js';

/** A pre-checked member of the default world's biggest network (the help examples use it). */
const TYLER = { handle: '@tylermoreau16', id: 'UCqM-DKpLzZNXQRB_wY327sw', oid: 'saoctjveiu8o485Er8_OBA' };

describe('tubekit cms and monetized (built binary)', () => {
  let cli: CliSandbox;
  let engine: Engine;
  let fx: CheckFixtures;
  let unchecked = 0;
  const freshChannel = () => fx.uncheckedNotManaged[unchecked++]!;
  beforeAll(async () => {
    cli = cliSandbox();
    engine = Engine.open({ dataDir: cli.dataDir, jobRunner: { mode: 'none' } });
    (await engine.defaultKey());
    fx = await checkFixtures(engine);
    setCheckWork(engine, 0);
  });
  afterAll(() => {
    engine.close();
    cli.cleanup();
  });

  const starterKey = async () => (await engine.identity.createUserWithKey('starter', [])).key;

  it('prints a managed channel as key/value lines and one line per member when piped', async () => {
    const result = await cli.run(['cms', TYLER.handle]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^channel_id\\t${TYLER.id}\\nstatus\\tmanaged\\noid\\t${TYLER.oid}\\n`));
    expect(result.stdout).toMatch(/\nchecked_live\tfalse\n/);
    const members = result.stdout.split('\n').filter((line) => line.startsWith('member\t'));
    expect(members).toHaveLength(5);
    expect(members[0]!.split('\t')).toHaveLength(5);
    expect(result.stderr).toBe('');
  });

  it('prints exactly the API body with --json', async () => {
    const result = await cli.run(['--json', 'cms', TYLER.id, '--full-network']);
    const service = new LocalService(engine);
    const body = await service.call('cms.check', { channel_id: TYLER.id, full_network: true });
    expect(JSON.parse(result.stdout)).toEqual(body);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('checks an unchecked channel live, and --refresh runs another', async () => {
    const channel = freshChannel();
    const first = JSON.parse((await cli.run(['cms', channel.handle, '--json'])).stdout);
    expect(first).toMatchObject({ status: 'not_managed', checked_live: true });
    const again = JSON.parse((await cli.run(['cms', channel.channel_id, '--json'])).stdout);
    expect(again.checked_live).toBe(false);
    const refreshed = JSON.parse((await cli.run(['cms', `https://www.youtube.com/${channel.handle}`, '--refresh', '--json'])).stdout);
    expect(refreshed.checked_live).toBe(true);
  });

  it('runs one live check when two processes ask for the same unchecked channel at once', async () => {
    setCheckWork(engine, 1_500);
    try {
      const channel = freshChannel();
      const [a, b] = await Promise.all([cli.run(['cms', channel.channel_id, '--json']), cli.run(['cms', channel.channel_id, '--json'])]);
      expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
      const bodies = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
      expect(bodies.map((body) => body.checked_live).sort()).toEqual([false, true]);
      expect(bodies[0].checked_at).toBe(bodies[1].checked_at);
      const live = engine.db.prepare("SELECT COUNT(*) AS n FROM rate_events WHERE bucket = 'cms-live'").get() as { n: number };
      const user = (await engine.authenticate((await engine.defaultKey())));
      expect(engine.db.prepare("SELECT COUNT(*) AS n FROM rate_events WHERE bucket = 'cms-live' AND user_id = ?").get(user.userId)).toEqual({ n: live.n });
    } finally {
      setCheckWork(engine, 0);
    }
  });

  it('exits 8 past the hourly live-check cap and Starter\'s daily lookup cap, saying when to retry', async () => {
    const key = await starterKey();
    await cli.run(['engine', 'limits', 'set', 'starter', 'cmsLiveChecksPerHour', '1']);
    await cli.run(['engine', 'limits', 'set', 'starter', 'cmsLookupsPerDay', '1']);
    try {
      const env = { TUBEKIT_API_KEY: key };
      expect((await cli.run(['cms', fx.notManaged.channel_id, '--refresh'], { env })).exitCode).toBe(0);
      const hourly = await cli.run(['cms', fx.notManaged.channel_id, '--refresh'], { env });
      expect(hourly.exitCode).toBe(8);
      expect(hourly.stderr).toMatch(/1 managed-network live checks an hour\. Try again in \d+s\./);
      expect((await cli.run(['cms', fx.notManaged.channel_id], { env })).exitCode).toBe(0);
      const daily = await cli.run(['--json', 'cms', fx.notManaged.channel_id], { env });
      expect(daily.exitCode).toBe(8);
      expect(JSON.parse(daily.stderr).error).toMatchObject({ status: 429, code: 'upgrade_required' });
      expect(daily.stdout).toBe('');
    } finally {
      await cli.run(['engine', 'limits', 'reset']);
    }
  });

  it('exits 2 for bad input before or at the service, 6 for an unknown handle, 5 for Starter network details', async () => {
    expect((await cli.run(['cms', 'UCAAAAAAAAAAAAAAAAAAAAAA'])).exitCode).toBe(2);
    expect((await cli.run(['cms', '@no-such-channel-anywhere'])).exitCode).toBe(6);
    expect((await cli.run(['cms'])).exitCode).toBe(2);
    for (const args of [['--limit', '101'], ['--limit', 'ten'], ['--sort', 'views'], ['--min-channels', '0']]) {
      const result = await cli.run(['cms', 'networks', ...args]);
      expect(result.exitCode, args.join(' ')).toBe(2);
    }
    const starter = await cli.run(['cms', 'network', TYLER.oid], { env: { TUBEKIT_API_KEY: await starterKey() } });
    expect(starter.exitCode).toBe(5);
    expect(starter.stderr).toMatch(/Professional or Ultimate/);
    expect((await cli.run(['cms', 'network', 'no-such-oid'])).exitCode).toBe(6);
  });

  it('lists networks as tab-separated rows and details one with its members', async () => {
    const listed = await cli.run(['cms', 'networks', '--limit', '3', '--sort', 'subscribers']);
    const rows = listed.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toHaveLength(6);
    expect(Number(rows[0]![5])).toBeGreaterThanOrEqual(Number(rows[1]![5]));
    const detail = await cli.run(['cms', 'network', TYLER.oid]);
    expect(detail.stdout).toMatch(new RegExp(`^oid\\t${TYLER.oid}\\nname\\t`));
    expect(detail.stdout.split('\n').filter((line) => line.startsWith(`member\t${TYLER.id}\t`))).toHaveLength(1);
  });

  describe('monetized', () => {
    let steady: WorldChannel;
    beforeAll(async () => {
      // Not flipping and rarely blocked, so its verdict does not move while the tests run.
      const world = await engine.platform();
      steady = world.sampleChannels(600).find((channel) => {
        const profile = adProfile('1', channel);
        return profile.flip === null && profile.blocking === 'rarely' && profile.monetized && world.channelVideos(channel, { kind: 'long' }).length > 2 && fx.notManaged.channel_id !== channel.channel_id;
      })!;
      engine.db.prepare("INSERT INTO cms_verdicts VALUES (?, 'not_managed', NULL, 0, 'live', 'x', 0, 0, NULL, NULL) ON CONFLICT DO NOTHING").run(steady.channel_id);
    });
    const storedVerdict = () => engine.db.prepare<[string], { monetized: number | null }>('SELECT monetized FROM ad_verdicts WHERE channel_id = ?').get(steady.channel_id);

    it('prints the verdict and previous; --exit-on-flip exits 0 without a flip', async () => {
      const first = await cli.run(['monetized', steady.handle, '--exit-on-flip']);
      expect(first.exitCode).toBe(0);
      expect(first.stdout).toMatch(new RegExp(`^channel_id\\t${steady.channel_id}\\nmonetized\\ttrue\\nreason\\tAds found`));
      expect(first.stdout).toMatch(/\nprevious\t\n/);
      const second = await cli.run(['monetized', steady.channel_id, '--exit-on-flip', '--json']);
      expect(second.exitCode).toBe(0);
      expect(JSON.parse(second.stdout).previous.monetized).toBe(true);
    });

    it('exits 11 with --exit-on-flip when the verdict differs from the last one known, still printing the body', async () => {
      // The service last saw the channel without ads.
      engine.db.prepare('UPDATE ad_verdicts SET monetized = 0, last_seen_demonetized_at = last_checked_at WHERE channel_id = ?').run(steady.channel_id);
      const flipped = await cli.run(['monetized', steady.channel_id, '--exit-on-flip']);
      expect(flipped.exitCode).toBe(11);
      expect(flipped.stdout).toMatch(/\nflipped\ttrue\n/);
      expect(flipped.stderr).toMatch(/flipped: not monetized before, monetized now/);
      expect(storedVerdict()).toEqual({ monetized: 1 });
      // Unknown last time: the state seen last decides.
      engine.db.prepare('UPDATE ad_verdicts SET monetized = NULL, last_seen_monetized_at = NULL WHERE channel_id = ?').run(steady.channel_id);
      const json = await cli.run(['--json', 'monetized', steady.channel_id, '--exit-on-flip']);
      expect(json.exitCode).toBe(11);
      expect(JSON.parse(json.stdout).monetized).toBe(true);
      expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'flipped' });
      engine.db.prepare('UPDATE ad_verdicts SET monetized = 0 WHERE channel_id = ?').run(steady.channel_id);
      expect((await cli.run(['monetized', steady.channel_id])).exitCode).toBe(0);
    });

    it('says how to index an unindexed channel, and after that command the ad-flip fault makes --exit-on-flip exit 11', async () => {
      const world = await engine.platform();
      // From the end of the list: freshChannel() hands out its front to the live-check tests.
      const outside = [...fx.uncheckedNotManaged].reverse().find((channel) => {
        const profile = adProfile('1', channel);
        return profile.blocking === 'rarely' && world.channelVideos(channel, { kind: 'long' }).length > 2;
      })!;
      const unknown = await cli.run(['--json', 'monetized', outside.handle, '--exit-on-flip']);
      expect(unknown.exitCode).toBe(0);
      const hint = JSON.parse(unknown.stdout).hint as string;
      expect(JSON.parse(unknown.stdout).monetized).toBeNull();
      // The hint's command, run as written, puts the channel in the index.
      const command = /`tubekit (cms \S+)`/.exec(hint)![1]!.split(' ');
      expect((await cli.run(command)).exitCode).toBe(0);
      const known = await cli.run(['--json', 'monetized', outside.handle, '--exit-on-flip']);
      expect(known.exitCode).toBe(0);
      expect(JSON.parse(known.stdout).monetized).not.toBeNull();
      expect((await cli.run(['engine', 'faults', 'set', 'ad-flip'])).exitCode).toBe(0);
      try {
        const flipped = await cli.run(['monetized', outside.handle, '--exit-on-flip']);
        expect(flipped.exitCode).toBe(11);
        expect(flipped.stdout).toMatch(/\nflipped\ttrue\n/);
      } finally {
        await cli.run(['engine', 'faults', 'clear', 'ad-flip']);
      }
    });

    it('profiles external monetization: nothing stored with --skip-live, then live, then reused', async () => {
      const skipped = await cli.run(['monetized', 'external', '@honestrunning', '--skip-live']);
      expect(skipped.exitCode).toBe(0);
      expect(skipped.stdout).toMatch(/^channel_id\tUC-G4LyTAzHi0Xaj33Fjszrg\nclassified\tfalse\nchecked_live\tfalse\n/);
      const live = await cli.run(['monetized', 'external', '@honestrunning']);
      expect(live.stdout).toMatch(/\nclassified\ttrue\nchecked_live\ttrue\n/);
      expect(live.stdout).toMatch(/\nmethod\tmerch\t.+\thttps:\/\//);
      expect(live.stdout).toMatch(/\nproduct\t.+\tmerch\t\d+(\.\d+)? USD\thttps:\/\/shop\.honestrunning\.example\//);
      expect(live.stdout).toMatch(/\nstore\thttps:\/\/shop\.honestrunning\.example\/\n/);
      const cached = JSON.parse((await cli.run(['--json', 'monetized', 'external', 'UC-G4LyTAzHi0Xaj33Fjszrg', '--cached-ok-secs', '3600'])).stdout);
      expect(cached).toMatchObject({ classified: true, checked_live: false });
      expect((await cli.run(['monetized', 'external', '@honestrunning', '--cached-ok-secs', 'soon'])).exitCode).toBe(2);
    });

    it('exits 9 when the classifier fails', async () => {
      await cli.run(['engine', 'faults', 'set', 'monetization-classifier-fail']);
      try {
        const failed = await cli.run(['monetized', 'external', '@honestrunning']);
        expect(failed.exitCode).toBe(9);
        expect(failed.stderr).toMatch(/classifier failed/);
        // The CLI's own option is named beside the API's parameter.
        expect(failed.stderr).toContain('`--skip-live` on the CLI');
      } finally {
        await cli.run(['engine', 'faults', 'clear']);
      }
    });
  });

  it('answers the same through serve (remote mode)', async () => {
    const server = await startServe(cli);
    try {
      const key = (await engine.identity.createUserWithKey('professional', [])).key;
      const env = { TUBEKIT_BASE_URL: server.url, TUBEKIT_API_KEY: key };
      const remote = await cli.run(['--json', 'cms', TYLER.handle], { env });
      expect(remote.exitCode).toBe(0);
      const local = await cli.run(['--json', 'cms', TYLER.handle]);
      expect(JSON.parse(remote.stdout)).toEqual(JSON.parse(local.stdout));
      const network = await cli.run(['cms', 'network', TYLER.oid, '--json'], { env });
      expect(JSON.parse(network.stdout).network.oid).toBe(TYLER.oid);
    } finally {
      await server.stop();
    }
  });

  describe.skipIf(!hasScript)('on a terminal', () => {
    it('shows a spinner with elapsed time on stderr during a live check, then the card, verdict first', async () => {
      setCheckWork(engine, 1_500);
      try {
        const channel = freshChannel();
        const { screen, exitCode } = await runOnTerminal(cli, ['cms', channel.handle]);
        expect(exitCode).toBe(0);
        expect(screen).toMatch(new RegExp(`Checking ${channel.handle.replace('.', '\\.')} · 1s`));
        // The verdict heads the card, right where the spinner was cleared.
        expect(screen).toMatch(/\u001b\[0K(\u001b\[\?25h)?not managed\r?\nchannel_id +UC[\w-]+\r?\nstatus +not_managed\r?\n/);
      } finally {
        setCheckWork(engine, 0);
      }
    });

    it('abandons a live check on Ctrl-C: exit 3, and the claim is released', async () => {
      setCheckWork(engine, 5_000);
      try {
        const channel = freshChannel();
        const { screen, exitCode } = await runOnTerminal(cli, ['cms', channel.channel_id], { steps: [{ after: /Checking/, keys: '\u0003' }] });
        expect(exitCode).toBe(3);
        expect(screen).toMatch(/abandoned/);
        expect(engine.db.prepare('SELECT * FROM cms_live_checks WHERE channel_id = ?').get(channel.channel_id)).toBeUndefined();
        expect(engine.db.prepare('SELECT * FROM cms_verdicts WHERE channel_id = ?').get(channel.channel_id)).toBeUndefined();
      } finally {
        setCheckWork(engine, 0);
      }
    });
  });
});
