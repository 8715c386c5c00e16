/**
 * The `voices` table: every user's clones of both providers, with the profile the synthesizer
 * speaks them with. Built-in voices are not stored; they come from the speech catalog. The rows
 * are in the engine's store (a fleet's PostgreSQL: a clone made on one server is used on any).
 */
import { randomBytes } from 'node:crypto';
import type { Provider } from '../../../core/schemas/voices.js';
import type { Executor } from '../../store/store.js';
import type { VoiceProfile } from '../../speech/index.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const VOICES_COLUMNS = 'id, public_id, user_id, provider, name, language, description, tags, profile, sample_path, upstream_id, created_at';

export interface StoredVoice {
  id: number;
  voiceId: string;
  userId: number;
  provider: Provider;
  name: string;
  /** `EN_US`-style code for stealth clones, a language name (`English`) for alt clones. */
  language: string;
  description: string;
  tags: string[];
  profile: VoiceProfile;
  /** Path of the kept sample, relative to the files dir. */
  samplePath: string;
  /** The voice's id at the upstream provider (alt clones). */
  upstreamId: string | null;
  createdAt: number;
}

interface VoiceRow {
  id: number;
  public_id: string;
  user_id: number;
  provider: Provider;
  name: string;
  language: string;
  description: string;
  tags: string;
  profile: string;
  sample_path: string;
  upstream_id: string | null;
  created_at: number;
}

const fromRow = (row: VoiceRow): StoredVoice => ({
  id: row.id,
  voiceId: row.public_id,
  userId: row.user_id,
  provider: row.provider,
  name: row.name,
  language: row.language,
  description: row.description,
  tags: JSON.parse(row.tags) as string[],
  profile: JSON.parse(row.profile) as VoiceProfile,
  samplePath: row.sample_path,
  upstreamId: row.upstream_id,
  createdAt: row.created_at,
});

const ID_PREFIX: Record<Provider, string> = { stealth: 'clone_', alt: 'alt_', elevenlabs: 'el_' };

/** A fresh public id: the prefix tells the provider apart at a glance. */
export function newVoiceId(provider: Provider): string {
  return ID_PREFIX[provider] + randomBytes(9).toString('base64url');
}

export async function listVoices(on: Executor, userId: number, provider: Provider): Promise<StoredVoice[]> {
  return (await on.all<VoiceRow>(`SELECT ${VOICES_COLUMNS} FROM voices WHERE user_id = ? AND provider = ? ORDER BY id`, [userId, provider])).map(fromRow);
}

export async function countVoices(on: Executor, userId: number, provider: Provider): Promise<number> {
  return (await on.get<{ n: number }>('SELECT COUNT(*) AS n FROM voices WHERE user_id = ? AND provider = ?', [userId, provider]))!.n;
}

/** The caller's clone with this id, or undefined — another user's voice is never returned. */
export async function findOwnVoice(on: Executor, userId: number, provider: Provider, voiceId: string): Promise<StoredVoice | undefined> {
  const row = await on.get<VoiceRow>(`SELECT ${VOICES_COLUMNS} FROM voices WHERE user_id = ? AND provider = ? AND public_id = ?`, [userId, provider, voiceId]);
  return row ? fromRow(row) : undefined;
}

export type NewVoice = Omit<StoredVoice, 'id'>;

export async function insertVoice(on: Executor, voice: NewVoice): Promise<void> {
  await on.run(
    `INSERT INTO voices (public_id, user_id, provider, name, language, description, tags, profile, sample_path, upstream_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      voice.voiceId,
      voice.userId,
      voice.provider,
      voice.name,
      voice.language,
      voice.description,
      JSON.stringify(voice.tags),
      JSON.stringify(voice.profile),
      voice.samplePath,
      voice.upstreamId,
      voice.createdAt,
    ],
  );
}

/** True when this call removed it (false: another request or machine did first). */
export async function deleteVoiceRow(on: Executor, id: number): Promise<boolean> {
  return (await on.run('DELETE FROM voices WHERE id = ?', [id])).changes > 0;
}
