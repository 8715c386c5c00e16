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
