import { badRequest, conflict, notFound } from '../../../core/errors.js';
import { nameKey } from '../../../core/name-key.js';
import type { Folder, FolderChannel } from '../../../core/schemas/workspace.js';
import { isoTime, naiveTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import { enforceCap } from '../access.js';
import { RememberedReads } from '../../store/change-watch.js';
import { preparedFor } from '../../store/prepared.js';
import { watchFields } from '../watch-fields.js';
import { workspaceStatements, type FolderRow } from './statements.js';


const toFolder = (row: FolderRow): Folder => ({
  id: row.id,
  name: row.name,
  channel_count: row.channel_count,
  created_at: naiveTime(row.created_at),
});

/** Each user's folders, remembered until the database may have changed: a polled list costs no query. */
const rememberedFolders = preparedFor((db) =>
  new RememberedReads(db, (userId: number) => Object.freeze(workspaceStatements(db).listFolders.all(userId).map((row) => Object.freeze(toFolder(row))))),
);

/** The caller's folders: a list of its own, of folders shared with later calls (frozen). */
export function listFolders(request: RequestContext): Folder[] {
  return rememberedFolders(request.engine.db).get(request.user.userId).slice();
}

/** The caller's folder, or 404: another user's folder is indistinguishable from a missing one. */
export function getOwnFolder(request: RequestContext, id: number): Folder {
  const row = workspaceStatements(request.engine.db).ownFolder.get(id, request.user.userId);
  if (!row) throw notFound(`Folder ${id} not found. List your folders with \`tubekit folders list\`.`);
  return toFolder(row);
}

/** Like getOwnFolder, but a missing folder is a bad request (saving into it). */
export function requireFolderForSave(request: RequestContext, id: number, field: string): Folder {
  try {
    return getOwnFolder(request, id);
  } catch {
    throw badRequest(`Invalid request: ${field}: folder ${id} does not exist or is not yours.`, 'List your folders with `tubekit folders list`.');
  }
}

/** The user's folder whose name is the same as `name` up to Unicode case and normalisation, if any. */
function nameTaken(request: RequestContext, name: string, exceptId?: number): { name: string } | undefined {
  return workspaceStatements(request.engine.db).nameTaken.get(request.user.userId, nameKey(name), exceptId ?? -1);
}

const collision = (name: string, existing: string) =>
  conflict(`A folder named "${existing}" already exists${existing === name ? '' : ` (names are compared ignoring case, so "${name}" counts as the same)`}. Pick another name.`);

export function createFolder(request: RequestContext, name: string): Folder {
  const { db, clock } = request.engine;
  const create = db.transaction(() => {
    const statements = workspaceStatements(db);
    const { n } = statements.countFolders.get(request.user.userId)!;
    enforceCap(request.limits.folders, n, 'You have reached the folder limit');
    const taken = nameTaken(request, name);
    if (taken) throw collision(name, taken.name);
    const result = statements.insertFolder.run(request.user.userId, name, nameKey(name), clock.now());
    return Number(result.lastInsertRowid);
  });
  return getOwnFolder(request, create.immediate());
}

export function renameFolder(request: RequestContext, id: number, name: string): Folder {
  const { db } = request.engine;
  const rename = db.transaction(() => {
    getOwnFolder(request, id);
    const taken = nameTaken(request, name, id);
    if (taken) throw collision(name, taken.name);
    workspaceStatements(db).renameFolder.run(name, nameKey(name), id);
  });
  rename.immediate();
  return getOwnFolder(request, id);
}

/**
 * Deleting a folder unsaves every channel in it: there is no fallback folder, and "unsave" means
 * what `DELETE /api/saved-channels/:id` does — the channel leaves all of the user's folders.
 */
export function deleteFolder(request: RequestContext, id: number): number {
  const { db } = request.engine;
  const remove = db.transaction(() => {
    const folder = getOwnFolder(request, id);
    const statements = workspaceStatements(db);
    statements.unsaveFolderChannels.run(request.user.userId, id);
    statements.deleteFolder.run(id);
    return folder.channel_count;
  });
  return remove.immediate();
}

/**
 * A folder's channels, newest save first, with their 24h and 48h deltas: figures from the index,
 * never a read of the platform per channel. On the live platform the index says since when each
 * channel has been watched and when it was last read; a delta its snapshots do not cover is null.
 */
export async function folderChannels(request: RequestContext, id: number): Promise<FolderChannel[]> {
  getOwnFolder(request, id);
  const rows = workspaceStatements(request.engine.db).folderChannels.all(id);
  const { channels, statistics } = await request.engine.index();
  return rows.map((row) => {
    const channel = channels.byId(row.channel_id);
    const deltas = channel ? statistics.deltas(row.channel_id) : null;
    const entry: FolderChannel = {
      channel_id: row.channel_id,
      handle: channel?.handle ?? null,
      title: channel?.title ?? row.channel_id,
      thumbnail_url: channel?.thumbnail_url ?? null,
      language: channel?.language ?? null,
      subscribers: channel?.subscribers ?? 0,
      total_views: channel?.total_views ?? 0,
      video_count: channel?.video_count ?? 0,
      saved_at: isoTime(row.saved_at),
      views_24h: deltas?.views_24h ?? null,
      views_48h: deltas?.views_48h ?? null,
      subs_24h: deltas?.subs_24h ?? null,
      subs_48h: deltas?.subs_48h ?? null,
    };
    if (statistics.coverage) Object.assign(entry, watchFields(statistics.coverage(row.channel_id)));
    return entry;
  });
}
