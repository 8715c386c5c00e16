/**
 * Delivery rules on an embedded engine with a manual clock: each pass is run by the test
 * (deliverDue), and retry waits pass by moving the clock, never by sleeping.
 */
import fs from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/engine/clock.js';
import { Engine } from '../../../../src/engine/engine.js';
import { LocalService } from '../../../../src/engine/local-service.js';
import { recordEvents } from '../../../../src/engine/features/events/outbox.js';
import { deliverDue } from '../../../../src/engine/features/webhooks/delivery.js';
import { startReceiver, type Receiver } from '../../../support/webhook-receiver.js';
import { tempDataDir } from '../../../support/engines.js';

const SCHEDULE = [1_000, 2_000, 4_000];

let engine: Engine;
let dataDir: string;
const clock = new ManualClock(Date.now());
const receivers: Receiver[] = [];

beforeAll(async () => {
  dataDir = tempDataDir();
  engine = await Engine.open({ dataDir, clock, jobRunner: { mode: 'none' }, webhooks: { allowLoopback: true, retrySchedule: SCHEDULE, timeoutMs: 1_000 } });
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function userWithEndpoint(receiver: Receiver) {
  const { key, user_id } = await engine.identity.createUserWithKey('ultimate', []);
  const service = new LocalService(engine, key);
  const created = await service.call('webhooks.create', { url: receiver.url, events: ['channel.new_upload', 'alert.triggered'] });
  receiver.secret = created.secret;
  return { service, userId: user_id, endpoint: created.endpoint };
}

async function receiverWith(behaviour: Parameters<typeof startReceiver>[0]) {
  const receiver = await startReceiver(behaviour);
  receivers.push(receiver);
  return receiver;
}

const upload = (userId: number, n: number) => ({
  userId,
  type: 'channel.new_upload' as const,
  at: clock.now(),
  data: { channel_id: 'UCx', handle: '@x', title: 'X', video_id: `video${n}`, video_title: `Video ${n}`, kind: 'longform', published_at: new Date(clock.now()).toISOString() },
});

async function emit(...events: ReturnType<typeof upload>[]) {
  await engine.store.transaction((tx) => recordEvents(tx, events));
}

describe('webhook delivery', () => {
  it('signs each delivery so the standardwebhooks verifier accepts it, and marks it delivered', async () => {
    const receiver = await receiverWith({});
    const { service, userId } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1));
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 1 });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.verified).toMatchObject({ ok: true, payload: { type: 'channel.new_upload', data: { video_id: 'video1' } } });
    expect(got!.headers['webhook-id']).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(JSON.parse(got!.body).id).toBe(got!.headers['webhook-id']);
    const { deliveries } = await service.call('webhooks.deliveries', {});
    expect(deliveries[0]).toMatchObject({ state: 'delivered', attempts: [{ attempt: 1, status: 204, error: null }] });
    // Another secret does not verify it: the signature is over this secret's key.
    receiver.secret = (await service.call('webhooks.rotateSecret', { id: deliveries[0]!.endpoint_id })).secret;
    expect(() => receiverVerify(receiver, got!)).toThrow(/No matching signature/);
  });

  it('retries a failing receiver on the schedule with the same webhook-id until it answers 2xx', async () => {
    const receiver = await receiverWith({ failFirst: 2 });
    const { service, userId } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1));
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 0 });
    // Not due again before its wait (jitter only shortens it, by at most a fifth).
    clock.advance(SCHEDULE[0]! * 0.8 - 10);
    expect((await deliverDue(engine)).attempted).toBe(0);
    clock.advance(SCHEDULE[0]! * 0.2 + 10);
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 0 });
    clock.advance(SCHEDULE[1]!);
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 1 });
    expect(new Set(receiver.received.map((got) => got.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((got) => got.body)).size).toBe(1);
    expect(receiver.received.every((got) => got.verified.ok)).toBe(true);
    const [delivery] = (await service.call('webhooks.deliveries', {})).deliveries;
    expect(delivery!.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 204]);
    expect((await service.call('webhooks.deliveries', { failed: true })).count).toBe(0);
  });

  it('delivers an endpoint\'s events in the order they happened, a failing one holding back the later', async () => {
    const receiver = await receiverWith({ failFirst: 1 });
    const { userId } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1), upload(userId, 2), upload(userId, 3));
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 0 });
    clock.advance(SCHEDULE[0]!);
    for (let pass = 0; pass < 3; pass++) await deliverDue(engine);
    const order = receiver.received.map((got) => JSON.parse(got.body).data.video_id);
    expect(order).toEqual(['video1', 'video1', 'video2', 'video3']);
  });

  it('gives up after the whole schedule, disables the endpoint and says why in webhooks list', async () => {
    const receiver = await receiverWith({ failFirst: 100 });
    const { service, userId, endpoint } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1), upload(userId, 2));
    for (let attempt = 0; attempt <= SCHEDULE.length; attempt++) {
      expect((await deliverDue(engine)).attempted).toBe(1);
      clock.advance(SCHEDULE[attempt] ?? 0);
    }
    expect((await deliverDue(engine)).attempted).toBe(0);
    expect(receiver.received).toHaveLength(SCHEDULE.length + 1);
    const [listed] = (await service.call('webhooks.list', {})).endpoints;
    expect(listed).toMatchObject({ id: endpoint.id, enabled: false, pending_deliveries: 1 });
    expect(listed!.disabled_reason).toMatch(/failed for its whole retry schedule \(4 attempts; last: HTTP 500\)/);
    const failed = await service.call('webhooks.deliveries', { failed: true });
    expect(failed.deliveries.map((delivery) => delivery.state)).toEqual(['failed']);
    await expect(service.call('webhooks.redeliver', { id: failed.deliveries[0]!.id })).rejects.toMatchObject({ status: 409 });
    // Enabled again: what waited is sent, the failed one too, with the same id.
    receiver.behaviour.failFirst = 0;
    await service.call('webhooks.update', { id: endpoint.id, enabled: true });
    await deliverDue(engine);
    await deliverDue(engine);
    expect(receiver.received.slice(-2).map((got) => JSON.parse(got.body).data.video_id)).toEqual(['video1', 'video2']);
    expect(receiver.received.at(-2)!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
  });

  it('redelivers a delivered event with the same webhook-id', async () => {
    const receiver = await receiverWith({});
    const { service, userId } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1));
    await deliverDue(engine);
    const [delivery] = (await service.call('webhooks.deliveries', {})).deliveries;
    expect((await service.call('webhooks.redeliver', { id: delivery!.id })).delivery.state).toBe('pending');
    await deliverDue(engine);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(receiver.received[1]!.verified.ok).toBe(true);
  });

  it('fails an attempt the receiver does not answer within the time limit', async () => {
    const receiver = await receiverWith({ delayMs: 3_000 });
    const { service, userId } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1));
    const started = Date.now();
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 0 });
    expect(Date.now() - started).toBeLessThan(2_500);
    const [delivery] = (await service.call('webhooks.deliveries', {})).deliveries;
    expect(delivery!.attempts[0]).toMatchObject({ status: null, error: 'timed out after 1 s' });
  });

  it('does not follow a redirect: a 3xx is a failed attempt, and its target gets nothing', async () => {
    const target = await receiverWith({});
    const receiver = await receiverWith({ redirectTo: target.url });
    const { service, userId } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1));
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 0 });
    expect(target.received).toHaveLength(0);
    const [delivery] = (await service.call('webhooks.deliveries', {})).deliveries;
    expect(delivery!.attempts[0]).toMatchObject({ status: 302, error: 'HTTP 302: redirects are not followed' });
  });

  it('reads at most 64 KB of an answer', async () => {
    const receiver = await receiverWith({ hugeBodyBytes: 64 * 1024 * 1024 });
    const { userId } = await userWithEndpoint(receiver);
    await emit(upload(userId, 1));
    expect(await deliverDue(engine)).toEqual({ attempted: 1, delivered: 1 });
    // The rest was never read: the sender could write little more than the socket buffers hold.
    expect(receiver.bytesWritten).toBeLessThan(16 * 1024 * 1024);
  });

  it('keeps a user within the deliveries-in-flight cap across endpoints', async () => {
    const { key, user_id } = await engine.identity.createUserWithKey('ultimate', []);
    const service = new LocalService(engine, key);
    const slow: Receiver[] = [];
    for (let n = 0; n < 6; n++) {
      const receiver = await receiverWith({ delayMs: 200 });
      receiver.secret = (await service.call('webhooks.create', { url: receiver.url, events: ['channel.new_upload'] })).secret;
      slow.push(receiver);
    }
    await emit(upload(user_id, 1));
    expect((await deliverDue(engine)).attempted).toBe(engine.webhooks.maxInFlightPerUser);
    expect((await deliverDue(engine)).attempted).toBe(6 - engine.webhooks.maxInFlightPerUser);
  });
});

function receiverVerify(receiver: Receiver, got: Receiver['received'][number]) {
  return new Webhook(receiver.secret!).verify(got.body, got.headers);
}
