import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'tk_';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh API key: a fixed prefix plus 40 random characters. */
export function newApiKey(): string {
  const bytes = randomBytes(40);
  let body = '';
  for (const byte of bytes) body += ALPHABET[byte % ALPHABET.length];
  return KEY_PREFIX + body;
}

/** Keys are stored as SHA-256 digests; the plain key exists only with its holder. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Enough of a key to recognise it in a listing, never enough to use it. */
export const keyPrefix = (key: string): string => key.slice(0, KEY_PREFIX.length + 6);
