/**
 * Webhook delivery: 10,000 events written to the outbox at once for one endpoint on 127.0.0.1
 * that answers at once, sent by the delivery loop `serve` and `engine worker` run; events a
 * second and the time from each event's creation to its arrival (p50, p95). Then the same with
 * 1 % of attempts answered 500 (retried on a 200 ms schedule, so a retry's wait stays visible
 * without dominating the run).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Engine } from '../src/engine/engine.js';
import { recordEvents, type NewEvent } from '../src/engine/features/events/outbox.js';
import { startDeliveryLoop } from '../src/engine/features/webhooks/delivery.js';
import { LocalService } from '../src/engine/local-service.js';
import type { BenchRow } from './table.js';

const EVENTS = 10_000;
const BATCH = 500;

interface Run {
  perSecond: number;
  p50: number;
  p95: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** A receiver that answers 204 (or 500 for every `failEvery`-th attempt) and notes each event's first arrival. */
async function startReceiver(failEvery: number): Promise<{ url: string; arrivals: Map<string, number>; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  let attempts = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      attempts += 1;
      if (failEvery > 0 && attempts % failEvery === 0) {
        response.writeHead(500).end();
        return;
      }
      const id = String(request.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, Date.now());
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, arrivals, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function deliverAll(failEvery: number): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-webhooks-'));
  const receiver = await startReceiver(failEvery);
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' }, webhooks: { allowLoopback: true, retrySchedule: [200, 400, 800, 1_600] } });
  try {
    const { key, user_id: userId } = await engine.identity.createUserWithKey('ultimate', []);
    await new LocalService(engine, key).call('webhooks.create', { url: receiver.url, events: ['alert.triggered'] });
    const created = new Map<string, number>();
    const started = Date.now();
    for (let first = 0; first < EVENTS; first += BATCH) {
      const at = Date.now();
      const events: NewEvent[] = Array.from({ length: Math.min(BATCH, EVENTS - first) }, (_, index) => ({ userId, type: 'alert.triggered', at, data: { n: first + index } }));
      await engine.store.transaction((tx) => recordEvents(tx, events));
    }
    const rows = await engine.store.all<{ id: string; occurred_at: number }>('SELECT id, occurred_at FROM events');
    for (const row of rows) created.set(row.id, Number(row.occurred_at));
    const stop = startDeliveryLoop(engine);
    while (receiver.arrivals.size < EVENTS) await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (Date.now() - started) / 1000;
    await stop();
    const latencies = [...receiver.arrivals].map(([id, at]) => at - created.get(id)!).sort((a, b) => a - b);
    return { perSecond: EVENTS / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
  } finally {
    await engine.close();
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function webhookRows(): Promise<BenchRow[]> {
  const clean = await deliverAll(0);
  const failing = await deliverAll(100);
  return [
    { name: `webhooks: ${EVENTS.toLocaleString('en')} events to one local endpoint, all delivered`, value: clean.perSecond, unit: 'events/s' },
    { name: 'webhooks: creation to delivery, p50 (the whole burst queued at once)', value: clean.p50, unit: 'ms' },
    { name: 'webhooks: creation to delivery, p95', value: clean.p95, unit: 'ms' },
    { name: 'webhooks: the same with 1 % of attempts answered 500', value: failing.perSecond, unit: 'events/s', baseline: { name: 'all answered at once', value: clean.perSecond } },
    { name: 'webhooks: 1 % failing, p50', value: failing.p50, unit: 'ms' },
    { name: 'webhooks: 1 % failing, p95', value: failing.p95, unit: 'ms' },
  ];
}
