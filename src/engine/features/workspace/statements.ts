import { preparedFor } from '../../store/prepared.js';

export interface FolderRow {
  id: number;
  name: string;
  created_at: number;
  channel_count: number;
}

const FOLDER_SELECT = `SELECT folders.id, folders.name, folders.created_at,
  (SELECT COUNT(*) FROM saved_channels WHERE saved_channels.folder_id = folders.id) AS channel_count
  FROM folders`;

/** Folders and saved channels: prepared once per connection, since every request uses them. */
export const workspaceStatements = preparedFor((db) => ({
  listFolders: db.prepare<[number], FolderRow>(`${FOLDER_SELECT} WHERE folders.user_id = ? ORDER BY folders.id`),
  ownFolder: db.prepare<[number, number], FolderRow>(`${FOLDER_SELECT} WHERE folders.id = ? AND folders.user_id = ?`),
  // By name key (NFC, full case folding): see src/core/name-key.ts.
  nameTaken: db.prepare<[number, string, number], { name: string }>('SELECT name FROM folders WHERE user_id = ? AND name_key = ? AND id != ?'),
  countFolders: db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM folders WHERE user_id = ?'),
  insertFolder: db.prepare<[number, string, string, number]>('INSERT INTO folders (user_id, name, name_key, created_at) VALUES (?, ?, ?, ?)'),
  renameFolder: db.prepare<[string, string, number]>('UPDATE folders SET name = ?, name_key = ? WHERE id = ?'),
  unsaveFolderChannels: db.prepare<[number, number]>(
    `DELETE FROM saved_channels WHERE user_id = ?
       AND channel_id IN (SELECT channel_id FROM saved_channels WHERE folder_id = ?)`,
  ),
  deleteFolder: db.prepare<[number]>('DELETE FROM folders WHERE id = ?'),
  folderChannels: db.prepare<[number], { channel_id: string; saved_at: number }>(
    'SELECT channel_id, saved_at FROM saved_channels WHERE folder_id = ? ORDER BY saved_at DESC, seq DESC',
  ),
  channelsIn: db.prepare<[number], { channel_id: string }>('SELECT channel_id FROM saved_channels WHERE folder_id = ?'),
  save: db.prepare<[number, number, string, number, number]>(
    'INSERT INTO saved_channels (folder_id, user_id, channel_id, saved_at, seq) VALUES (?, ?, ?, ?, ?)',
  ),
  unsave: db.prepare<[number, string]>('DELETE FROM saved_channels WHERE user_id = ? AND channel_id = ?'),
  move: db.prepare<[number, number, string]>('UPDATE saved_channels SET folder_id = ? WHERE folder_id = ? AND channel_id = ?'),
  removeFromFolder: db.prepare<[number, string]>('DELETE FROM saved_channels WHERE folder_id = ? AND channel_id = ?'),
}));
