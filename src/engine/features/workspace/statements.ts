import type { Executor } from '../../store/store.js';

export interface FolderRow {
  id: number;
  name: string;
  created_at: number;
  channel_count: number;
}

const FOLDER_SELECT = `SELECT folders.id, folders.name, folders.created_at,
  (SELECT COUNT(*) FROM saved_channels WHERE saved_channels.folder_id = folders.id) AS channel_count
  FROM folders`;

/** Folders and saved channels: the workspace's SQL, portable between the two stores. */
export const workspaceSql = {
  listFolders: (on: Executor, userId: number) => on.all<FolderRow>(`${FOLDER_SELECT} WHERE folders.user_id = ? ORDER BY folders.id`, [userId]),
  ownFolder: (on: Executor, id: number, userId: number) => on.get<FolderRow>(`${FOLDER_SELECT} WHERE folders.id = ? AND folders.user_id = ?`, [id, userId]),
  // By name key (NFC, full case folding): see src/core/name-key.ts.
  nameTaken: (on: Executor, userId: number, key: string, exceptId: number) =>
    on.get<{ name: string }>('SELECT name FROM folders WHERE user_id = ? AND name_key = ? AND id != ?', [userId, key, exceptId]),
  countFolders: async (on: Executor, userId: number) => (await on.get<{ n: number }>('SELECT COUNT(*) AS n FROM folders WHERE user_id = ?', [userId]))!.n,
  insertFolder: async (on: Executor, userId: number, name: string, key: string, now: number) =>
    (await on.get<{ id: number }>('INSERT INTO folders (user_id, name, name_key, created_at) VALUES (?, ?, ?, ?) RETURNING id', [userId, name, key, now]))!.id,
  renameFolder: (on: Executor, name: string, key: string, id: number) => on.run('UPDATE folders SET name = ?, name_key = ? WHERE id = ?', [name, key, id]),
  unsaveFolderChannels: (on: Executor, userId: number, folderId: number) =>
    on.run(
      `DELETE FROM saved_channels WHERE user_id = ?
         AND channel_id IN (SELECT channel_id FROM saved_channels WHERE folder_id = ?)`,
      [userId, folderId],
    ),
  deleteFolder: (on: Executor, id: number) => on.run('DELETE FROM folders WHERE id = ?', [id]),
  folderChannels: (on: Executor, folderId: number) =>
    on.all<{ channel_id: string; saved_at: number }>('SELECT channel_id, saved_at FROM saved_channels WHERE folder_id = ? ORDER BY saved_at DESC, seq DESC', [folderId]),
  channelsIn: (on: Executor, folderId: number) => on.all<{ channel_id: string }>('SELECT channel_id FROM saved_channels WHERE folder_id = ?', [folderId]),
  save: (on: Executor, folderId: number, userId: number, channelId: string, now: number, seq: number) =>
    on.run('INSERT INTO saved_channels (folder_id, user_id, channel_id, saved_at, seq) VALUES (?, ?, ?, ?, ?)', [folderId, userId, channelId, now, seq]),
  unsave: (on: Executor, userId: number, channelId: string) => on.run('DELETE FROM saved_channels WHERE user_id = ? AND channel_id = ?', [userId, channelId]),
  move: (on: Executor, toId: number, fromId: number, channelId: string) =>
    on.run('UPDATE saved_channels SET folder_id = ? WHERE folder_id = ? AND channel_id = ?', [toId, fromId, channelId]),
  removeFromFolder: (on: Executor, folderId: number, channelId: string) => on.run('DELETE FROM saved_channels WHERE folder_id = ? AND channel_id = ?', [folderId, channelId]),
};

/** Serialises a user's workspace writes across processes and machines (caps and name checks). */
/** The change topic of folders and saved channels: writers call `store.changed(WORKSPACE_TOPIC)` after committing. */
export const WORKSPACE_TOPIC = 'workspace';

export const workspaceLock = (userId: number) => `workspace:${userId}`;
