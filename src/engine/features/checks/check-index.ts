/**
 * The checks' index starts with the hosted service's pre-checked managed-network verdicts and no
 * ad or external result. The pre-checked verdicts come with the engine's index (the sample world
 * seeds them); they are copied into the checks' store the first time a check runs on a world, and
 * again whenever the world is rebuilt (`engine seed`,
 * or a tubekit version whose world differs) — which also forgets the managed-network verdicts,
 * owners and claims of the world before, since they describe channels and networks that are gone.
 * On the live platform there are no pre-checked verdicts: the store holds what live checks found.
 */
import type { EngineContext } from '../../context.js';
import type { PrecheckedVerdict, PrecheckedVerdicts } from '../../index/prechecked.js';
import { checksStore, type ChecksStore } from './check-store.js';
import { averageViews, precheckedVerdicts } from './known-channel.js';

export const EDITION_SETTING = 'checks-precheck-edition';
const synced = new WeakSet<PrecheckedVerdicts>();

/** The checks' store, with the index holding this world's pre-checked verdicts. */
export async function checkIndex(engine: EngineContext): Promise<ChecksStore> {
  const store = checksStore(engine.db);
  const prechecked = await precheckedVerdicts(engine);
  if (prechecked && !synced.has(prechecked)) {
    const sync = engine.db.transaction(() => {
      if (engine.localSettings.get<string>(EDITION_SETTING) === prechecked.edition) return;
      store.clearCms();
      for (const verdict of prechecked.verdicts()) storePrecheck(store, verdict);
      void engine.localSettings.set(EDITION_SETTING, prechecked.edition);
    });
    sync.immediate();
    synced.add(prechecked);
  }
  return store;
}

function storePrecheck(store: ChecksStore, verdict: PrecheckedVerdict): void {
  if (verdict.owner) store.putOwner.run(verdict.owner);
  store.putVerdict.run({
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
  });
}
