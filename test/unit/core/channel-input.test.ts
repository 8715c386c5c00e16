import { describe, expect, it } from 'vitest';
import { legacyChannelUrl, parseChannelRef, parseVideoUrl } from '../../../src/core/channel-input.js';

const ID = 'UCabcdefghijklmnopqrstuv';

describe('parseChannelRef', () => {
  it.each([
    [ID, { kind: 'id', channelId: ID }],
    ['@CozyCooking', { kind: 'handle', handle: 'CozyCooking' }],
    ['https://www.youtube.com/@cozy.cooking', { kind: 'handle', handle: 'cozy.cooking' }],
    ['youtube.com/@cozy/videos', { kind: 'handle', handle: 'cozy' }],
    ['https://m.youtube.com/@cozy?si=x', { kind: 'handle', handle: 'cozy' }],
    [`https://www.youtube.com/channel/${ID}`, { kind: 'id', channelId: ID }],
    [`https://www.youtube.com/channel/${ID}/featured`, { kind: 'id', channelId: ID }],
    // Legacy custom names and usernames are URLs the platform resolves as they are, not handles.
    ['https://www.youtube.com/c/CozyCooking', { kind: 'legacy', path: 'c', name: 'CozyCooking' }],
    ['https://www.youtube.com/user/cozy', { kind: 'legacy', path: 'user', name: 'cozy' }],
    ['youtube.com/user/creativecommons/videos', { kind: 'legacy', path: 'user', name: 'creativecommons' }],
  ])('reads %s', (input, expected) => {
    expect(parseChannelRef(input)).toEqual(expected);
  });

  it.each(['', 'hello', 'UCshort', 'https://vimeo.com/@x', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', '@a', 'https://www.youtube.com/channel/notanid'])(
    'refuses %s as a channel',
    (input) => {
      expect(parseChannelRef(input)).toBeNull();
    },
  );

  it('gives a legacy address back as its canonical URL', () => {
    expect(legacyChannelUrl({ path: 'user', name: 'creativecommons' })).toBe('https://www.youtube.com/user/creativecommons');
    expect(legacyChannelUrl({ path: 'c', name: 'Café' })).toBe('https://www.youtube.com/c/Caf%C3%A9');
  });

  it('accepts video URLs only when asked to', () => {
    expect(parseChannelRef('https://youtu.be/dQw4w9WgXcQ', { allowVideo: true })).toEqual({ kind: 'video', videoId: 'dQw4w9WgXcQ' });
    expect(parseChannelRef('https://www.youtube.com/shorts/dQw4w9WgXcQ', { allowVideo: true })).toEqual({ kind: 'video', videoId: 'dQw4w9WgXcQ' });
    expect(parseChannelRef('https://youtu.be/dQw4w9WgXcQ')).toBeNull();
  });
});

describe('parseVideoUrl', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10', 'dQw4w9WgXcQ'],
    ['youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/live/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.tiktok.com/@x/video/123', null],
    ['https://www.youtube.com/watch?v=short', null],
  ])('reads %s', (input, expected) => {
    expect(parseVideoUrl(input)).toBe(expected);
  });
});
