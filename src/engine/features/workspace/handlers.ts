import type { Handlers } from '../../context.js';
import { createFolder, deleteFolder, folderChannels, listFolders, renameFolder } from './folders.js';
import { resolveChannel } from './resolve.js';
import { moveChannel, saveChannels, unsaveChannel } from './saved.js';

export const workspaceHandlers: Handlers = {
  async 'folders.list'(request) {
    const folders = await listFolders(request);
    return { success: true, count: folders.length, folders };
  },
  async 'folders.create'(request, input) {
    return { success: true, folder: await createFolder(request, input.name) };
  },
  async 'folders.rename'(request, input) {
    return { success: true, folder: await renameFolder(request, input.id, input.name) };
  },
  async 'folders.delete'(request, input) {
    return { success: true, unsaved_channels: await deleteFolder(request, input.id) };
  },
  async 'folders.channels'(request, input) {
    const channels = await folderChannels(request, input.id);
    return { success: true, folder_id: input.id, count: channels.length, channels };
  },
  'saved.add'(request, input) {
    return saveChannels(request, input.channel_ids, input.folder_id);
  },
  'saved.remove'(request, input) {
    return unsaveChannel(request, input.channel_id);
  },
  'saved.move'(request, input) {
    return moveChannel(request, input.channel_id, input.from_folder_id, input.to_folder_id);
  },
  async 'channels.resolve'(request, input) {
    return resolveChannel(await request.engine.platform(), await request.engine.terminated(), input.input);
  },
};
