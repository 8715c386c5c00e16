/** Folders, saved channels and channel resolution. */
import * as z from 'zod';
import { channelId, integer, jsonBody, success, text } from './params.js';
import { nameText } from './name-text.js';

export const FOLDER_NAME_MAX = 50;

const folderId = integer({ min: 1 });
const folderName = nameText({ max: FOLDER_NAME_MAX });

export const folder = z.object({
  id: z.number().int(),
  name: z.string(),
  channel_count: z.number().int(),
  /** UTC, without a timezone suffix, as the hosted service lists it. */
  created_at: z.string(),
});
export type Folder = z.infer<typeof folder>;

export const folderChannel = z.object({
  channel_id: z.string(),
  handle: z.string().nullable(),
  title: z.string(),
  thumbnail_url: z.string().nullable(),
  language: z.string().nullable(),
  /** null: the index does not know it (a count the live site hid, or a channel not read yet). */
  subscribers: z.number().int().nullable(),
  total_views: z.number().int().nullable(),
  video_count: z.number().int().nullable(),
  saved_at: z.string(),
  views_24h: z.number().int().nullable(),
  views_48h: z.number().int().nullable(),
  subs_24h: z.number().int().nullable(),
  subs_48h: z.number().int().nullable(),
  /** Ours, on the live platform: since when the engine has watched the channel (no history before). */
  watched_since: z.string().nullable().optional(),
  /** Ours, on the live platform: the read its figures and deltas are as of. */
  figures_as_of: z.string().nullable().optional(),
});
export type FolderChannel = z.infer<typeof folderChannel>;

export const listFoldersInput = z.object({});
export const listFoldersOutput = z.object({ success, count: z.number().int(), folders: z.array(folder) });

export const createFolderInput = jsonBody({ name: folderName });
export const folderOutput = z.object({ success, folder });

export const renameFolderInput = jsonBody({ id: folderId, name: folderName }, { pathFields: ['id'] });

export const folderIdInput = z.object({ id: folderId });
export const deleteFolderOutput = z.object({ success, unsaved_channels: z.number().int() });

export const folderChannelsOutput = z.object({
  success,
  folder_id: z.number().int(),
  count: z.number().int(),
  channels: z.array(folderChannel),
});

export const saveChannelsInput = jsonBody({
  channel_ids: z
    .array(channelId, { error: 'must be an array of channel ids starting with UC' })
    .min(1, { error: 'must list at least one channel id' }),
  folder_id: folderId,
});
export const saveChannelsOutput = z.object({
  success,
  folder_id: z.number().int(),
  saved: z.number().int(),
  already_saved: z.number().int(),
  channel_count: z.number().int(),
});

export const unsaveChannelInput = z.object({ channel_id: channelId });
export const unsaveChannelOutput = z.object({
  success,
  channel_id: z.string(),
  removed_from: z.number().int(),
});

export const moveChannelInput = jsonBody({
  channel_id: channelId,
  from_folder_id: folderId,
  to_folder_id: folderId,
});
export const moveChannelOutput = z.object({
  success,
  channel_id: z.string(),
  from_folder_id: z.number().int(),
  to_folder_id: z.number().int(),
});

export const resolveInput = jsonBody({ input: text({ max: 500 }) });
export const resolveOutput = z.object({
  success,
  input: z.string(),
  channel_id: z.string(),
  handle: z.string().nullable(),
  /** Null for a well-formed id no channel has: nothing is made up for it. */
  title: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  /** The hosted service's names for the title and the picture, which its own clients read. */
  channel_name: z.string().nullable(),
  channel_thumbnail: z.string().nullable(),
  /** Ours: false when the id is well formed but no channel has it (returned unchanged, as the spec says). */
  known: z.boolean(),
});
export type ResolvedChannel = z.infer<typeof resolveOutput>;
