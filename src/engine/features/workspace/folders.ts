import { badRequest, conflict, notFound, ServiceError } from '../../../core/errors.js';
import { nameKey } from '../../../core/name-key.js';
import type { Folder, FolderChannel } from '../../../core/schemas/workspace.js';
import { isoTime, naiveTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import { enforceCap } from '../access.js';
import { RememberedStoreReads } from '../../store/change-watch.js';
import type { Executor, Store } from '../../store/store.js';
import { watchFields } from '../watch-fields.js';
import { WORKSPACE_TOPIC, workspaceLock, workspaceSql, type FolderRow } from './statements.js';


const toFolder = (row: FolderRow): Folder => ({
  id: row.id,
  name: row.name,
  channel_count: row.channel_count,
  created_at: naiveTime(row.created_at),
});

/** Each user's folders, remembered until a workspace write (any process's): a polled list costs no query. */
const remembered = new WeakMap<Store, RememberedStoreReads<number, readonly Folder[]>>();

function rememberedFolders(store: Store): RememberedStoreReads<number, readonly Folder[]> {
  let reads = remembered.get(store);
  if (!reads) {
    reads = new RememberedStoreReads(store.changeSignal(WORKSPACE_TOPIC), async (userId: number) =>
      Object.freeze((await workspaceSql.listFolders(store, userId)).map((row) => Object.freeze(toFolder(row)))),
    );
    remembered.set(store, reads);
  }
  return reads;
}

/** The caller's folders: a list of its own, of folders shared with later calls (frozen). */
export async function listFolders(request: RequestContext): Promise<Folder[]> {
  return (await rememberedFolders(request.engine.store).get(request.user.userId)).slice();
}

/** The caller's folder, or 404: another user's folder is indistinguishable from a missing one. */
export async function getOwnFolder(request: RequestContext, id: number, on: Executor = request.engine.store): Promise<Folder> {
  const row = await workspaceSql.ownFolder(on, id, request.user.userId);
  if (!row) throw notFound(`Folder ${id} not found. List your folders with \`tubekit folders list\`.`);
  return toFolder(row);
}

/** Like getOwnFolder, but a missing folder is a bad request (saving into it). */
export async function requireFolderForSave(request: RequestContext, id: number, field: string, on: Executor = request.engine.store): Promise<Folder> {
  try {
    return await getOwnFolder(request, id, on);
  } catch (error) {
    // Only a folder that is not there: a store that cannot be reached is never read as absence (503).
    if (!(error instanceof ServiceError && error.status === 404)) throw error;
    throw badRequest(`Invalid request: ${field}: folder ${id} does not exist or is not yours.`, 'List your folders with `tubekit folders list`.');
  }
}

/** The user's folder whose name is the same as `name` up to Unicode case and normalisation, if any. */
function nameTaken(request: RequestContext, on: Executor, name: string, exceptId?: number): Promise<{ name: string } | undefined> {
  return workspaceSql.nameTaken(on, request.user.userId, nameKey(name), exceptId ?? -1);
}

const collision = (name: string, existing: string) =>
  conflict(`A folder named "${existing}" already exists${existing === name ? '' : ` (names are compared ignoring case, so "${name}" counts as the same)`}. Pick another name.`);

export async function createFolder(request: RequestContext, name: string): Promise<Folder> {
  const { store, clock } = request.engine;
  const id = await store.transaction(async (tx) => {
    await tx.lock(workspaceLock(request.user.userId));
    const n = await workspaceSql.countFolders(tx, request.user.userId);
    enforceCap(request.limits.folders, n, 'You have reached the folder limit');
    const taken = await nameTaken(request, tx, name);
    if (taken) throw collision(name, taken.name);
    return workspaceSql.insertFolder(tx, request.user.userId, name, nameKey(name), clock.now());
  });
  await store.changed(WORKSPACE_TOPIC);
  return getOwnFolder(request, id);
}

export async function renameFolder(request: RequestContext, id: number, name: string): Promise<Folder> {
  await request.engine.store.transaction(async (tx) => {
    await tx.lock(workspaceLock(request.user.userId));
    await getOwnFolder(request, id, tx);
    const taken = await nameTaken(request, tx, name, id);
    if (taken) throw collision(name, taken.name);
    await workspaceSql.renameFolder(tx, name, nameKey(name), id);
  });
  await request.engine.store.changed(WORKSPACE_TOPIC);
  return getOwnFolder(request, id);
}

/**
 * Deleting a folder unsaves every channel in it: there is no fallback folder, and "unsave" means
 * what `DELETE /api/saved-channels/:id` does — the channel leaves all of the user's folders.
 */
export async function deleteFolder(request: RequestContext, id: number): Promise<number> {
  const unsaved = await request.engine.store.transaction(async (tx) => {
    await tx.lock(workspaceLock(request.user.userId));
    const folder = await getOwnFolder(request, id, tx);
    await workspaceSql.unsaveFolderChannels(tx, request.user.userId, id);
    await workspaceSql.deleteFolder(tx, id);
    return folder.channel_count;
  });
  await request.engine.store.changed(WORKSPACE_TOPIC);
  return unsaved;
}

/**
 * A folder's channels, newest save first, with their 24h and 48h deltas: figures from the index,
 * never a read of the platform per channel. On the live platform the index says since when each
 * channel has been watched and when it was last read; a delta its snapshots do not cover is null.
 */
export async function folderChannels(request: RequestContext, id: number): Promise<FolderChannel[]> {
  await getOwnFolder(request, id);
  const rows = await workspaceSql.folderChannels(request.engine.store, id);
  const { channels, statistics } = await request.engine.index();
  // Side by side: on a fleet's database each channel's reads are round trips of their own.
  return Promise.all(rows.map(async (row) => {
    const channel = await channels.byId(row.channel_id);
    const deltas = channel ? await statistics.deltas(row.channel_id) : null;
    const entry: FolderChannel = {
      channel_id: row.channel_id,
      handle: channel?.handle ?? null,
      title: channel?.title ?? row.channel_id,
      thumbnail_url: channel?.thumbnail_url ?? null,
      language: channel?.language ?? null,
      subscribers: channel?.subscribers ?? null,
      total_views: channel?.total_views ?? null,
      video_count: channel?.video_count ?? null,
      saved_at: isoTime(row.saved_at),
      views_24h: deltas?.views_24h ?? null,
      views_48h: deltas?.views_48h ?? null,
      subs_24h: deltas?.subs_24h ?? null,
      subs_48h: deltas?.subs_48h ?? null,
    };
    if (statistics.coverage) Object.assign(entry, watchFields(await statistics.coverage(row.channel_id)));
    return entry;
  }));
}
