import { describe, expect, it } from 'vitest';
import { redactSecrets, redactUrl } from '../../../src/core/redact.js';

const KEY = 'tk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';

describe('redactSecrets', () => {
  it.each([
    ['a query parameter', `GET /api/folders?api_key=${KEY}&x=1`],
    ['an encoded query parameter', `url=%2Fapi%2Ffolders%3Fapi_key%3D${KEY}`],
    ['an Authorization header', `authorization: Bearer ${KEY}`],
    ['an Authorization header as JSON', `{"authorization":"Bearer ${KEY}"}`],
    ['a multipart field', `Content-Disposition: form-data; name="api_key"\r\n\r\n${KEY}\r\n--boundary`],
    ['a JSON field', `{"api_key": "${KEY}"}`],
    ['a bare key in a message', `Unexpected token in JSON at position 9: {"name": "${KEY}`],
  ])('masks %s', (_what, text) => {
    const masked = redactSecrets(text);
    expect(masked).not.toContain(KEY.slice(3));
    expect(masked).toContain('[redacted]');
  });

  it('leaves text without secrets alone', () => {
    const text = 'POST /api/folders 201 in 3 ms {"name":"Keys of the piano"}';
    expect(redactSecrets(text)).toBe(text);
  });

  it('keeps the rest of a URL readable', () => {
    expect(redactUrl(`/api/folders?x=1&api_key=${KEY}&y=2`)).toBe('/api/folders?x=1&api_key=[redacted]&y=2');
  });
});

describe('a percent-encoded api_key parameter', () => {
  it('is masked in URLs and in any text, however its name is encoded', () => {
    for (const name of ['api%5fkey', 'api%5Fkey', '%61pi_key', '%61%70%69%5f%6b%65%79']) {
      expect(redactUrl(`/api/health?${name}=secretvalue1234&x=1`), name).toBe(`/api/health?${name}=[redacted]&x=1`);
      expect(redactSecrets(`GET /api/folders?a=1&${name}=secretvalue1234 200`), name).toBe(`GET /api/folders?a=1&${name}=[redacted] 200`);
    }
    // Other encoded names are left alone.
    expect(redactUrl('/api/x?q%5f=keep')).toBe('/api/x?q%5f=keep');
  });
});
