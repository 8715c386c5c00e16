/** The one rule of a live read: only the site's own words say something does not exist. */
import { describe, expect, it } from 'vitest';
import { fileVerdict, innertubeVerdict } from '../../../../../src/engine/platform/live/read-verdict.js';

const NOT_FOUND = JSON.stringify({ error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } });

describe('a read verdict', () => {
  it('is found on 2xx', () => {
    expect(innertubeVerdict('/player', { videoId: 'x' }, 200, '{}', 'POST /player').kind).toBe('found');
  });

  it("is absent only on the site's NOT_FOUND answer to the resolver or a channel page", () => {
    expect(innertubeVerdict('/navigation/resolve_url', { url: 'u' }, 404, NOT_FOUND, 'r').kind).toBe('absent');
    expect(innertubeVerdict('/browse', { browseId: 'UCx' }, 404, NOT_FOUND, 'r').kind).toBe('absent');
  });

  it('fails on a bare 404, a NOT_FOUND of a tab, continuation or player, and any other status', () => {
    const failed = [
      innertubeVerdict('/navigation/resolve_url', { url: 'u' }, 404, 'Not Found', 'POST /resolve'),
      innertubeVerdict('/browse', { browseId: 'UCx' }, 404, '<html>gone</html>', 'POST /browse'),
      innertubeVerdict('/browse', { browseId: 'UCx', params: 'p' }, 404, NOT_FOUND, 'POST /browse'),
      innertubeVerdict('/browse', { continuation: 'c' }, 404, NOT_FOUND, 'POST /browse'),
      innertubeVerdict('/player', { videoId: 'x' }, 404, NOT_FOUND, 'POST /player'),
      innertubeVerdict('/navigation/resolve_url', { url: 'u' }, 500, NOT_FOUND, 'POST /resolve'),
      innertubeVerdict('/navigation/resolve_url', { url: 'u' }, 404, JSON.stringify({ error: { code: 400, status: 'NOT_FOUND' } }), 'POST /resolve'),
      fileVerdict(404, 'GET /api/timedtext'),
    ];
    for (const verdict of failed) {
      expect(verdict.kind).toBe('failed');
      if (verdict.kind === 'failed') expect(verdict.error).toMatchObject({ status: 502, code: 'upstream_error', message: expect.stringMatching(/with HTTP \d+\.$/) });
    }
  });
});
