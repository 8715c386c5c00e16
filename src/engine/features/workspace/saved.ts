import { badRequest, forbidden, notFound } from '../../../core/errors.js';
import type { RequestContext } from '../../context.js';
import { enforceCap } from '../access.js';
import { refuseTerminated } from '../terminated/terminated-channel.js';
import { getOwnFolder, requireFolderForSave } from './folders.js';
import { workspaceStatements } from './statements.js';

function channelsIn(request: RequestContext, folderId: number): Set<string> {
  const rows = workspaceStatements(request.engine.db).channelsIn.all(folderId);
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
  const { db, clock } = request.engine;
  const unique = [...new Set(channelIds)];
  requireFolderForSave(request, folderId, 'folder_id');
  await requireKnownChannels(request, unique);
  // The platform is read first (it may be slow); the cap check and the insert share one transaction.
  const save = db.transaction(() => {
    requireFolderForSave(request, folderId, 'folder_id');
    const present = channelsIn(request, folderId);
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
    const insert = workspaceStatements(db).save;
    fresh.forEach((id, index) => insert.run(folderId, request.user.userId, id, now, index));
    return { saved: fresh.length, already_saved: unique.length - fresh.length, channel_count: present.size + fresh.length };
  });
  return { success: true as const, folder_id: folderId, ...save.immediate() };
}

/** Removes a channel from every folder of the caller. */
export function unsaveChannel(request: RequestContext, channelId: string) {
  const result = workspaceStatements(request.engine.db).unsave.run(request.user.userId, channelId);
  if (result.changes === 0) throw notFound(`Channel ${channelId} is not saved in any of your folders.`);
  return { success: true as const, channel_id: channelId, removed_from: result.changes };
}

export function moveChannel(request: RequestContext, channelId: string, fromId: number, toId: number) {
  const { db } = request.engine;
  const move = db.transaction(() => {
    getOwnFolder(request, fromId);
    requireFolderForSave(request, toId, 'to_folder_id');
    if (fromId === toId) throw badRequest('Invalid request: from_folder_id and to_folder_id are the same folder.');
    const source = channelsIn(request, fromId);
    if (!source.has(channelId)) throw notFound(`Channel ${channelId} is not saved in folder ${fromId}.`);
    const target = channelsIn(request, toId);
    if (!target.has(channelId)) {
      const cap = request.limits.channelsPerFolder;
      enforceCap(cap, target.size, `Folder ${toId} already holds ${target.size} channels, its cap`);
      workspaceStatements(db).move.run(toId, fromId, channelId);
    } else {
      workspaceStatements(db).removeFromFolder.run(fromId, channelId);
    }
  });
  move.immediate();
  return { success: true as const, channel_id: channelId, from_folder_id: fromId, to_folder_id: toId };
}
