/**
 * The checks' index starts with the hosted service's pre-checked managed-network verdicts and no
 * ad or external result. The pre-checked verdicts come with the engine's index (the sample world
 * seeds them); they are copied into the checks' store the first time a check runs on a world, and
 * again whenever the world is rebuilt into another (`engine seed` with other parameters, another
 * reference date, or a tubekit version whose world differs) — which also forgets the
 * managed-network verdicts, owners and claims of the world before, since they describe channels
 * and networks that are gone. In a fleet the store is shared: its servers' data dirs must hold the
 * same world (one edition), or each would replace the others' verdicts with its own.
 * On the live platform there are no pre-checked verdicts: the store holds what live checks found.
 */
import type { EngineContext } from '../../context.js';
import type { PrecheckedVerdict, PrecheckedVerdicts } from '../../index/prechecked.js';
import type { Executor } from '../../store/store.js';
import { checksSql, type CmsVerdictRow } from './check-store.js';
import { averageViews, precheckedVerdicts } from './known-channel.js';

/**
 * The edition the store holds, in the store's settings table, read and written in the sync's own
 * transaction: in a fleet the verdicts are shared, so is the edition they came from.
 */
export const EDITION_SETTING = 'checks-precheck-edition';
const SYNC_LOCK = 'checks-precheck';
const synced = new WeakSet<PrecheckedVerdicts>();

/** The checks' store, with the index holding this world's pre-checked verdicts. */
export async function checkIndex(engine: EngineContext): Promise<Executor> {
  const prechecked = await precheckedVerdicts(engine);
  if (prechecked && !synced.has(prechecked)) {
    await engine.store.transaction(async (tx) => {
      // One process copies an edition in; the others, waiting here, then find it there.
      await tx.lock(SYNC_LOCK);
      const stored = await tx.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', [EDITION_SETTING]);
      if (stored && JSON.parse(stored.value) === prechecked.edition) return;
      await checksSql.clearCms(tx);
      const verdicts = [...prechecked.verdicts()];
      await checksSql.putOwners(tx, verdicts.flatMap((verdict) => (verdict.owner ? [verdict.owner] : [])));
      await checksSql.putVerdicts(tx, verdicts.map(precheckRow));
      await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
        EDITION_SETTING,
        JSON.stringify(prechecked.edition),
      ]);
    });
    synced.add(prechecked);
  }
  return engine.store;
}

function precheckRow(verdict: PrecheckedVerdict): CmsVerdictRow {
  return {
    channel_id: verdict.channel_id,
    status: verdict.owner ? 'managed' : 'not_managed',
    oid: verdict.owner?.oid ?? null,
    checked_at: verdict.checked_at,
    source: 'precheck',
    name: verdict.title,
    subscribers: verdict.subscribers,
    avg_views: averageViews(verdict),
    language: verdict.language,
    category: verdict.category,
  };
}
