import { describe, expect, it } from 'vitest';
import { parseVideoLink } from '../../../src/core/video-link.js';

const ID = 'dQw4w9WgXcQ';

describe('parseVideoLink', () => {
  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}&t=42s`,
    `https://music.youtube.com/watch?v=${ID}&list=PL123`,
    `youtube.com/watch?list=PL1&v=${ID}`,
    `https://youtu.be/${ID}?si=abc`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://www.youtube.com/live/${ID}`,
  ])('reads %s', (input) => {
    expect(parseVideoLink(input)).toEqual({ ok: true, videoId: ID });
  });

  it.each(['https://www.tiktok.com/@user/video/123', 'https://vimeo.com/12345', 'instagram.com/reel/abc'])('calls %s another platform', (input) => {
    expect(parseVideoLink(input)).toMatchObject({ ok: false, reason: 'unsupported' });
  });

  it.each(['', 'hello', 'not a url at all', ID])('calls %s malformed', (input) => {
    expect(parseVideoLink(input)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it.each(['https://www.youtube.com/@someone', 'https://www.youtube.com/watch?v=short', 'https://youtu.be/'])('says %s names no video', (input) => {
    expect(parseVideoLink(input)).toMatchObject({ ok: false, reason: 'not_a_video' });
  });
});
