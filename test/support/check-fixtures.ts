/** Sample-world channels and networks with the properties the channel-check tests need, found by their data. */
import type { Engine } from '../../src/engine/engine.js';
import { setWorkDuration } from '../../src/engine/simulated-work.js';
import type { WorldChannel } from '../../src/engine/platform/sample/types.js';

export interface CheckFixtures {
  /** Pre-checked as managed (and still managed) by the network with the most pre-checked members. */
  managed: WorldChannel;
  bigOid: string;
  /** Pre-checked as not managed, and still not managed. */
  notManaged: WorldChannel;
  /** Longform, not pre-checked, managed by a network: a live check finds it. */
  uncheckedManaged: WorldChannel;
  uncheckedManagedOid: string;
  /** Longform, not pre-checked, not managed. */
  uncheckedNotManaged: WorldChannel[];
  /** Pre-checked as not managed, but managed now: refresh=1 tells. */
  staleNotManaged: WorldChannel;
  /** A shorts channel. */
  shorts: WorldChannel;
  /** Owner e-mails of the world, which must never be answered. */
  ownerEmails: string[];
}

export async function checkFixtures(engine: Engine): Promise<CheckFixtures> {
  const world = await engine.platform();
  const channels = Array.from({ length: world.channelCount() }, (_, index) => world.channelByIndex(index)!);
  const prechecked = new Map([...world.networks.prechecked()].map((verdict) => [verdict.channel_id, verdict]));
  const truth = (channel: WorldChannel) => world.networks.ownerOf(channel.channel_id)?.oid ?? null;
  const precheckOid = (channel: WorldChannel) => prechecked.get(channel.channel_id)?.owner?.oid ?? null;
  const sizes = new Map<string, number>();
  for (const verdict of prechecked.values()) if (verdict.owner) sizes.set(verdict.owner.oid, (sizes.get(verdict.owner.oid) ?? 0) + 1);
  const bigOid = [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
  const pick = (what: string, test: (channel: WorldChannel) => boolean): WorldChannel => {
    const found = channels.find(test);
    if (!found) throw new Error(`no sample channel is ${what}`);
    return found;
  };
  const longform = (channel: WorldChannel) => channel.content_type === 'longform';
  const uncheckedManaged = pick('an unchecked managed longform channel', (c) => longform(c) && !prechecked.has(c.channel_id) && truth(c) !== null);
  return {
    managed: pick('a pre-checked member of the biggest network', (c) => precheckOid(c) === bigOid && truth(c) === bigOid),
    bigOid,
    notManaged: pick('a pre-checked unmanaged channel', (c) => prechecked.has(c.channel_id) && precheckOid(c) === null && truth(c) === null),
    uncheckedManaged,
    uncheckedManagedOid: truth(uncheckedManaged)!,
    uncheckedNotManaged: channels.filter((c) => longform(c) && !prechecked.has(c.channel_id) && truth(c) === null),
    staleNotManaged: pick('a stale pre-checked channel', (c) => prechecked.has(c.channel_id) && precheckOid(c) === null && truth(c) !== null),
    shorts: pick('a shorts channel', (c) => c.content_type === 'shorts'),
    ownerEmails: engine.db
      .prepare<[], { owner_email: string }>('SELECT owner_email FROM world_networks WHERE owner_email IS NOT NULL')
      .all()
      .map((row) => row.owner_email),
  };
}

/** Sets how long every simulated activity (live checks included) takes, in milliseconds. */
export function setCheckWork(engine: Engine, ms: number): Promise<void> {
  return setWorkDuration(engine.settings, { min_ms: ms, max_ms: ms });
}

/** Rate events counted for a user in one bucket (`cms-live`, `cms-lookup`), in the engine's store. */
export async function countedEvents(engine: Engine, userId: number, bucket: string): Promise<number> {
  return (await engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM rate_events WHERE user_id = ? AND bucket = ?', [userId, bucket]))!.n;
}
