/**
 * The route table's `workspace` part: folders, saved channels and channel resolution.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as ws from '../schemas/workspace.js';

export const workspaceRoutes = routePart('workspace', {
  'folders.list': defineRoute({
    method: 'GET', path: '/api/folders', encoding: 'none', input: ws.listFoldersInput,
    response: ws.listFoldersOutput, summary: 'Your folders',
  }),
  'folders.create': defineRoute({
    method: 'POST', path: '/api/folders', encoding: 'json', input: ws.createFolderInput,
    response: ws.folderOutput, status: 201, summary: 'Create a folder',
  }),
  'folders.rename': defineRoute({
    method: 'PATCH', path: '/api/folders/:id', encoding: 'json', input: ws.renameFolderInput,
    response: ws.folderOutput, summary: 'Rename a folder',
  }),
  'folders.delete': defineRoute({
    method: 'DELETE', path: '/api/folders/:id', encoding: 'none', input: ws.folderIdInput,
    response: ws.deleteFolderOutput, summary: 'Delete a folder and unsave its channels',
  }),
  'folders.channels': defineRoute({
    method: 'GET', path: '/api/folders/:id/channels', encoding: 'none', input: ws.folderIdInput,
    response: ws.folderChannelsOutput, summary: 'Channels in a folder with live deltas',
  }),
  'saved.add': defineRoute({
    method: 'POST', path: '/api/saved-channels', encoding: 'json', input: ws.saveChannelsInput,
    response: ws.saveChannelsOutput, summary: 'Save channels into a folder',
  }),
  'saved.remove': defineRoute({
    method: 'DELETE', path: '/api/saved-channels/:channel_id', encoding: 'none', input: ws.unsaveChannelInput,
    response: ws.unsaveChannelOutput, summary: 'Remove a channel from all your folders',
  }),
  'saved.move': defineRoute({
    method: 'POST', path: '/api/saved-channels/move', encoding: 'json', input: ws.moveChannelInput,
    response: ws.moveChannelOutput, summary: 'Move a saved channel between folders',
  }),
  'channels.resolve': defineRoute({
    method: 'POST', path: '/api/channels/resolve', encoding: 'json', input: ws.resolveInput,
    response: ws.resolveOutput, summary: 'Resolve a handle or URL to a channel id',
    effect: 'read', // a lookup, by POST
  }),
});
