/**
 * Where the engine keeps its state: `sqlite:<file>` (or nothing: the data dir's own file) or a
 * PostgreSQL URL shared by a fleet. Read from `--store`, then TUBEKIT_STORE, then the profile's
 * `store` setting.
 */
export type StoreLocation =
  | { kind: 'sqlite'; file?: string }
  | { kind: 'postgres'; url: string; description: string };

export class StoreLocationError extends Error {}

export function parseStoreLocation(text: string | undefined): StoreLocation {
  const value = text?.trim();
  if (!value) return { kind: 'sqlite' };
  if (value.startsWith('sqlite:')) {
    const file = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new StoreLocationError('The store "sqlite:" names no file: give sqlite:<path>, or leave the store out to use the data dir\'s database.');
    return { kind: 'sqlite', file };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new StoreLocationError(`The store "${redactStoreUrl(value)}" is not a valid URL: use postgres://user@host:5432/database.`);
    }
    if (url.pathname.length <= 1 && !url.searchParams.get('host')) {
      throw new StoreLocationError(`The store ${redactStoreUrl(value)} names no database: use postgres://user@host:5432/database.`);
    }
    return { kind: 'postgres', url: value, description: redactStoreUrl(value) };
  }
  throw new StoreLocationError(`The store "${redactStoreUrl(value)}" is neither sqlite:<path> nor postgres://user@host/database.`);
}

/** Query parameters of a store URL that carry a secret: the password, and the one of the client's TLS key. */
const SECRET_PARAMETERS = /([?&](?:password|sslpassword)=)[^&]*/gi;

/** The URL without its secrets (a store URL may carry some; they never go to output or logs). */
export function redactStoreUrl(text: string): string {
  return text.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@').replace(SECRET_PARAMETERS, '$1***');
}
