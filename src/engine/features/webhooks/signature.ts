/**
 * Signing as the Standard Webhooks specification says: the secret is `whsec_` and base64 key
 * bytes; `webhook-signature` is `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` with them.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const KEY_BYTES = 32;

export const newSecret = () => `${SECRET_PREFIX}${randomBytes(KEY_BYTES).toString('base64')}`;

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three headers of a delivery. */
export function signedHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureOf(secret, id, timestampSeconds, body),
  };
}
