import fs from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import { Engine } from '../../src/engine/engine.js';
import { deliverDue } from '../../src/engine/features/webhooks/delivery.js';
import { cliSandbox, type CliSandbox } from '../support/cli.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const LOOPBACK = { TUBEKIT_ALLOW_LOOPBACK_WEBHOOKS: '1' };

async function until(check: () => boolean, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('tubekit CLI (built binary): webhooks and alerts watch', () => {
  let cli: CliSandbox;
  let receiver: Receiver;
  beforeAll(async () => {
    cli = cliSandbox();
    receiver = await startReceiver();
    expect((await cli.run(['engine', 'seed', '--channels', '800', '--seed', '11'])).exitCode).toBe(0);
  });
  afterAll(async () => {
    await receiver.close();
    cli.cleanup();
  });

  it('creates an endpoint printing only its secret, never shows it again, and refuses what the rules refuse', async () => {
    const refused = await cli.run(['webhooks', 'create', receiver.url, '--events', 'alert.triggered']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/https only/);
    expect((await cli.run(['webhooks', 'create', 'https://example.com/x', '--events', 'alert.exploded'])).exitCode).toBe(2);
    const created = await cli.run(['webhooks', 'create', receiver.url, '--events', 'alert.triggered,channel.new_upload'], { env: LOOPBACK });
    expect(created.exitCode).toBe(0);
    expect(created.stdout).toMatch(/^whsec_[A-Za-z0-9+/=]+\n$/);
    receiver.secret = created.stdout.trim();
    expect(created.stderr).toMatch(/shown once/);
    const listed = await cli.run(['webhooks', 'list', '--json']);
    expect(JSON.parse(listed.stdout).endpoints[0]).toMatchObject({ url: receiver.url, enabled: true });
    expect(listed.stdout + listed.stderr).not.toContain(receiver.secret.slice(6));
  });

  it('delivers from `tubekit engine worker`, signed so the standardwebhooks verifier accepts it', async () => {
    await cli.run(['alerts', 'create', 'Outliers']);
    await cli.run(['alerts', 'create', 'New', '--type', 'new_channel']);
    expect((await cli.run(['engine', 'world', 'advance', '2d'])).exitCode).toBe(0);
    const worker = cli.spawn(['engine', 'worker', '--allow-loopback-webhooks']);
    try {
      await until(() => receiver.received.length > 0, 'a delivery');
    } finally {
      worker.kill('SIGTERM');
      await worker;
    }
    const got = receiver.received[0]!;
    expect(new Webhook(receiver.secret!).verify(got.body, got.headers)).toMatchObject({ id: got.headers['webhook-id'] });
    const deliveries = JSON.parse((await cli.run(['webhooks', 'deliveries', '--json'])).stdout);
    expect(deliveries.deliveries.some((delivery: { state: string }) => delivery.state === 'delivered')).toBe(true);
  });

  it('sends again, with the same webhook-id, a delivery whose worker was killed mid-attempt', async () => {
    const slow = await startReceiver({ delayMs: 120_000 });
    try {
      const created = await cli.run(['webhooks', 'create', slow.url, '--events', 'alert.triggered'], { env: LOOPBACK });
      slow.secret = created.stdout.trim();
      expect((await cli.run(['engine', 'world', 'advance', '2d'])).exitCode).toBe(0);
      const worker = cli.spawn(['engine', 'worker', '--allow-loopback-webhooks']);
      await until(() => slow.received.length > 0, 'the first attempt');
      worker.kill('SIGKILL');
      await worker;
      const first = slow.received[0]!.headers['webhook-id'];
      slow.behaviour.delayMs = 0;
      // Later than the dead worker's lease: another process takes the delivery up again.
      const engine = await Engine.open({ dataDir: cli.dataDir, clock: new ManualClock(Date.now() + 60_000), jobRunner: { mode: 'none' }, webhooks: { allowLoopback: true } });
      try {
        for (let pass = 0; pass < 5 && !slow.received.slice(1).some((got) => got.headers['webhook-id'] === first); pass++) await deliverDue(engine);
      } finally {
        await engine.close();
      }
      const again = slow.received.slice(1).find((got) => got.headers['webhook-id'] === first);
      expect(again?.body).toBe(slow.received[0]!.body);
      expect(new Webhook(slow.secret).verify(again!.body, again!.headers)).toMatchObject({ id: first });
    } finally {
      await slow.close();
    }
  });

  it('runs --exec once per event with the event on stdin, retries a failing command, and resumes after Ctrl-C', async () => {
    const dir = path.join(cli.dataDir, '..');
    const out = path.join(dir, 'events.txt');
    const mark = path.join(dir, 'failed-once');
    // Fails the first time it runs, then records each event's environment and stdin.
    const command = `test -f '${mark}' || { touch '${mark}'; exit 1; }; printf '%s %s %s\\n' "$TUBEKIT_EVENT_ID" "$TUBEKIT_EVENT_TYPE" "$(cat | tr -d '\\n')" >> '${out}'`;
    const all = async () => JSON.parse((await cli.run(['alerts', 'triggered', '--since', '0', '--json'])).stdout).events as { id: string; type: string }[];
    const firstBatch = (await all()).length;
    expect(firstBatch).toBeGreaterThan(0);

    const watch = cli.spawn(['alerts', 'watch', '--events', 'alert.triggered', '--exec', command]);
    await until(() => lines(out).length >= firstBatch, 'the first batch of events');
    watch.kill('SIGINT');
    const stopped = await watch;
    expect(stopped.exitCode).toBe(0);
    expect(String(stopped.stderr)).toMatch(/--exec failed for event evt_\w+ \(exit 1\); retrying in 1 s/);
    for (const line of lines(out)) {
      const [id, type, ...json] = line.split(' ');
      expect(type).toBe('alert.triggered');
      expect(JSON.parse(json.join(' '))).toMatchObject({ id, type: 'alert.triggered' });
    }

    expect((await cli.run(['engine', 'world', 'advance', '3d'])).exitCode).toBe(0);
    const total = (await all()).length;
    expect(total).toBeGreaterThan(firstBatch);
    const again = cli.spawn(['alerts', 'watch', '--events', 'alert.triggered', '--exec', command]);
    await until(() => lines(out).length >= total, 'the second batch of events');
    again.kill('SIGINT');
    expect((await again).exitCode).toBe(0);
    const ids = lines(out).map((line) => line.split(' ')[0]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual((await all()).map((event) => event.id).sort());
  });

  it('prints NDJSON with --json, replays with --from-start, and gives cron the events after a cursor', async () => {
    const events = JSON.parse((await cli.run(['alerts', 'triggered', '--since', '0', '--json'])).stdout);
    const middle = events.events[Math.floor(events.events.length / 2)].cursor as string;
    const later = JSON.parse((await cli.run(['alerts', 'triggered', '--since', middle, '--json'])).stdout);
    expect(later.events[0].cursor).not.toBe(middle);
    expect(later.events.length).toBe(events.events.length - 1 - Math.floor(events.events.length / 2));
    expect(later.cursor).toBe(events.cursor);
    expect((await cli.run(['alerts', 'triggered', '--since', 'yesterday'])).exitCode).toBe(2);

    const watch = cli.spawn(['alerts', 'watch', '--from-start', '--json']);
    let seen = '';
    watch.stdout!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    await until(() => seen.split('\n').filter(Boolean).length >= events.events.length, 'the replay');
    watch.kill('SIGINT');
    await watch;
    const printed = seen.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(printed.filter((event) => event.type === 'alert.triggered').map((event) => event.id)).toEqual(events.events.map((event: { id: string }) => event.id));
  });
});
