/** A fault of ours answers 500 with a message of its own: the error's text (tables, paths, the database) stays in the log. */
import { expect, it } from 'vitest';
import { toServiceError } from '../../src/server/error-mapping.js';

it('answers a fault with a 500 body that carries none of its message', () => {
  const fault = new Error('insert into "voices" failed: invalid byte sequence for encoding "UTF8": 0x00 (postgres://app:pw@db.internal/tubekit, /srv/data/files)');
  const body = toServiceError(fault as never).toBody();
  expect(body).toMatchObject({ success: false, code: 'internal', error: 'Internal error: the server could not answer this request.' });
  expect(JSON.stringify(body)).not.toMatch(/voices|postgres|UTF8|\/srv/);
});

it('tells a caller without a valid key that the database is away, not which database', async () => {
  const { forCaller } = await import('../../src/server/error-mapping.js');
  const { storeUnavailable } = await import('../../src/engine/store/postgres-store.js');
  const failure = storeUnavailable('postgres://app@db.internal:5432/tubekit', new Error('connect ECONNREFUSED 10.0.0.5:5432'));
  const anonymous = forCaller(failure, false).toBody();
  expect(anonymous).toMatchObject({ success: false, code: 'store_unavailable', error: 'Service unavailable: the database cannot be reached.' });
  expect(JSON.stringify(anonymous)).not.toMatch(/db\.internal|10\.0\.0\.5|postgres:/);
  expect(forCaller(failure, false).retryAfterSeconds).toBe(5);
  expect(forCaller(failure, true).message).toContain('db.internal');
});
