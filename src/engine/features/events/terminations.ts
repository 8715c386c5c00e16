/**
 * channel.terminated: a read found a saved channel terminated or deleted, where the index held it
 * as something else before. Written in the transaction that records the read.
 */
import { isoTime } from '../../clock.js';
import type { Transaction } from '../../store/store.js';
import { recordEvents } from './outbox.js';

export interface FoundGone {
  channel_id: string;
  handle: string | null;
  title: string | null;
  state: 'terminated' | 'missing';
  reason: string | null;
  atMs: number;
}

export async function recordTermination(tx: Transaction, gone: FoundGone): Promise<void> {
  const users = await tx.all<{ user_id: number }>('SELECT DISTINCT user_id FROM saved_channels WHERE channel_id = ? ORDER BY user_id', [gone.channel_id]);
  const { atMs, ...data } = gone;
  await recordEvents(
    tx,
    users.map((user) => ({ userId: user.user_id, type: 'channel.terminated' as const, at: atMs, data: { ...data, found_at: isoTime(atMs) } })),
  );
}
