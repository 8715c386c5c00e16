/** A store URL's secrets never show: the password in its user part or query, and the TLS key's (`sslpassword`). */
import { expect, it } from 'vitest';
import { parseStoreLocation, redactStoreUrl } from '../../../../src/engine/store/store-location.js';

it('masks every secret of a store URL, wherever it is, and keeps the rest', () => {
  expect(redactStoreUrl('postgres://tubekit:s3cret@db.internal:5432/fleet')).toBe('postgres://tubekit:***@db.internal:5432/fleet');
  expect(redactStoreUrl('postgres://tubekit@db.internal/fleet?sslmode=verify-full&sslpassword=keypass&password=p2&application_name=x')).toBe(
    'postgres://tubekit@db.internal/fleet?sslmode=verify-full&sslpassword=***&password=***&application_name=x',
  );
  expect(redactStoreUrl('postgres://db.internal/fleet?SSLPASSWORD=keypass')).toBe('postgres://db.internal/fleet?SSLPASSWORD=***');
  const location = parseStoreLocation('postgresql://u:pw@h/d?sslpassword=keypass');
  expect(location).toEqual({ kind: 'postgres', url: 'postgresql://u:pw@h/d?sslpassword=keypass', description: 'postgresql://u:***@h/d?sslpassword=***' });
});
