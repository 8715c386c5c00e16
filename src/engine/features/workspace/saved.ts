import { badRequest, forbidden, notFound } from '../../../core/errors.js';
import type { RequestContext } from '../../context.js';
import { enforceCap } from '../access.js';
import { refuseTerminated } from '../terminated/terminated-channel.js';
import { getOwnFolder, requireFolderForSave } from './folders.js';
import type { Executor } from '../../store/store.js';
import { WORKSPACE_TOPIC, workspaceLock, workspaceSql } from './statements.js';

async function channelsIn(on: Executor, folderId: number): Promise<Set<string>> {
  const rows = await workspaceSql.channelsIn(on, folderId);
  return new Set(rows.map((row) => row.channel_id));
}

async function requireKnownChannels(request: RequestContext, channelIds: string[]): Promise<void> {
  const platform = await request.engine.platform();
  const found = await Promise.all(channelIds.map((id) => platform.channelById(id)));
  const unknown = channelIds.filter((_, index) => !found[index]);
  const { terminated } = await request.engine.index();
  for (const channelId of unknown) await refuseTerminated(terminated, channelId);
  if (unknown.length > 0) {
    throw badRequest(
      `Invalid request: channel_ids: no channel exists with id ${unknown.join(', ')}.`,
      'Resolve handles and URLs first with `tubekit resolve`.',
    );
  }
}

/**
 * Saves channels into a folder. All or nothing: if the save would push the folder past its
 * cap (30 on every plan), nothing is saved.
 */
export async function saveChannels(request: RequestContext, channelIds: string[], folderId: number) {
  const { store, clock } = request.engine;
  const unique = [...new Set(channelIds)];
  await requireFolderForSave(request, folderId, 'folder_id');
  await requireKnownChannels(request, unique);
  // The platform is read first (it may be slow); the cap check and the insert share one transaction.
  const saved = await store.transaction(async (tx) => {
    await tx.lock(workspaceLock(request.user.userId));
    await requireFolderForSave(request, folderId, 'folder_id', tx);
    const present = await channelsIn(tx, folderId);
    const fresh = unique.filter((id) => !present.has(id));
    const cap = request.limits.channelsPerFolder;
    if (present.size + fresh.length > cap) {
      throw forbidden(
        `Saving ${fresh.length} more channel(s) would push folder ${folderId} past its cap of ${cap} channels (it holds ${present.size}); nothing was saved.`,
        'limit_reached',
        'Save fewer channels, or move some to another folder.',
      );
    }
    const now = clock.now();
    for (const [index, id] of fresh.entries()) await workspaceSql.save(tx, folderId, request.user.userId, id, now, index);
    return { saved: fresh.length, already_saved: unique.length - fresh.length, channel_count: present.size + fresh.length };
  });
  await store.changed(WORKSPACE_TOPIC);
  return { success: true as const, folder_id: folderId, ...saved };
}

/** Removes a channel from every folder of the caller. */
export async function unsaveChannel(request: RequestContext, channelId: string) {
  const result = await workspaceSql.unsave(request.engine.store, request.user.userId, channelId);
  if (result.changes > 0) await request.engine.store.changed(WORKSPACE_TOPIC);
  if (result.changes === 0) throw notFound(`Channel ${channelId} is not saved in any of your folders.`);
  return { success: true as const, channel_id: channelId, removed_from: result.changes };
}

export async function moveChannel(request: RequestContext, channelId: string, fromId: number, toId: number) {
  await request.engine.store.transaction(async (tx) => {
    await tx.lock(workspaceLock(request.user.userId));
    await getOwnFolder(request, fromId, tx);
    await requireFolderForSave(request, toId, 'to_folder_id', tx);
    if (fromId === toId) throw badRequest('Invalid request: from_folder_id and to_folder_id are the same folder.');
    const source = await channelsIn(tx, fromId);
    if (!source.has(channelId)) throw notFound(`Channel ${channelId} is not saved in folder ${fromId}.`);
    const target = await channelsIn(tx, toId);
    if (!target.has(channelId)) {
      const cap = request.limits.channelsPerFolder;
      enforceCap(cap, target.size, `Folder ${toId} already holds ${target.size} channels, its cap`);
      await workspaceSql.move(tx, toId, fromId, channelId);
    } else {
      await workspaceSql.removeFromFolder(tx, fromId, channelId);
    }
  });
  await request.engine.store.changed(WORKSPACE_TOPIC);
  return { success: true as const, channel_id: channelId, from_folder_id: fromId, to_folder_id: toId };
}
