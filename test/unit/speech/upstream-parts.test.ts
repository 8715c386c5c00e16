import { describe, expect, it } from 'vitest';
import { wordsFromAlignment, isCharacterAlignment } from '../../../src/engine/speech/alignment-words.js';
import { encodeMp3 } from '../../../src/engine/speech/index.js';
import { joinMp3, Mp3FormatError, readMp3Frames } from '../../../src/engine/speech/mp3-frames.js';
import { chunkScript, splitSentences } from '../../../src/engine/speech/sentence-chunks.js';
import { resolveUpstream } from '../../../src/engine/speech/providers/speech-settings.js';

describe('chunkScript', () => {
  it('packs whole sentences up to the limit and loses no character', () => {
    const text = 'One two three. Four five six! Seven eight nine? Ten.';
    expect(splitSentences(text)).toEqual(['One two three. ', 'Four five six! ', 'Seven eight nine? ', 'Ten.']);
    const chunks = chunkScript(text, 32);
    expect(chunks).toEqual(['One two three. Four five six! ', 'Seven eight nine? Ten.']);
    expect(chunks.join('')).toBe(text);
  });

  it('cuts a sentence longer than the limit at its last space before it', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    const chunks = chunkScript(text, 20);
    expect(chunks.every((chunk) => chunk.length <= 20)).toBe(true);
    expect(chunks[0]).toBe('alpha beta gamma ');
    expect(chunks.join('')).toBe(text);
  });
});

describe('wordsFromAlignment', () => {
  it('times a word from its first character\'s start to its last one\'s end, moved by the offset', () => {
    const alignment = { characters: [...'Hi yo'], character_start_times_seconds: [0, 0.1, 0.2, 0.3, 0.4], character_end_times_seconds: [0.1, 0.2, 0.3, 0.4, 0.5] };
    expect(isCharacterAlignment(alignment)).toBe(true);
    expect(wordsFromAlignment(alignment, 2)).toEqual([
      { text: 'Hi', startMs: 2000, endMs: 2200 },
      { text: 'yo', startMs: 2300, endMs: 2500 },
    ]);
    expect(isCharacterAlignment({ characters: ['a'], character_start_times_seconds: [], character_end_times_seconds: [1] })).toBe(false);
  });
});

describe('readMp3Frames and joinMp3', () => {
  it('reads LAME\'s frames and joins two streams with their durations added', async () => {
    const one = readMp3Frames(await encodeMp3(new Int16Array(44_100), 44_100, 128));
    const two = readMp3Frames(await encodeMp3(new Int16Array(22_050), 44_100, 128));
    expect(one.sampleRate).toBe(44_100);
    expect(one.durationSeconds).toBeGreaterThanOrEqual(1);
    expect(one.durationSeconds).toBeLessThan(1.1);
    const joined = joinMp3([one, two]);
    expect(joined.frames).toBe(one.frames + two.frames);
    expect(joined.durationSeconds).toBeCloseTo(one.durationSeconds + two.durationSeconds, 6);
    expect(readMp3Frames(joined.data).frames).toBe(joined.frames);
    expect(() => readMp3Frames(Buffer.from('not audio at all'))).toThrow(Mp3FormatError);
  });
});

describe('resolveUpstream', () => {
  it('is "none" without a key, and refuses a key in a file others may read', () => {
    expect(resolveUpstream({ env: {} }, 'elevenlabs').state).toBe('none');
    const shared = resolveUpstream({ env: {}, profile: () => ({ values: { 'elevenlabs.api_key': 'k' }, file: '/x/config.json', mode: 0o100644 }) }, 'elevenlabs');
    expect(shared).toMatchObject({ state: 'invalid', problem: expect.stringMatching(/others may read \(mode 0644\)/) });
    const fine = resolveUpstream({ env: {}, profile: () => ({ values: { 'elevenlabs.api_key': 'k' }, file: '/x/config.json', mode: 0o100600 }) }, 'elevenlabs');
    expect(fine).toMatchObject({ state: 'configured', config: { baseUrl: 'https://api.elevenlabs.io', keySource: 'config file', timeoutMs: 180_000 } });
    const env = resolveUpstream({ env: { TUBEKIT_MINIMAX_API_KEY: 'm', TUBEKIT_MINIMAX_BASE_URL: 'http://127.0.0.1:9/', TUBEKIT_MINIMAX_TIMEOUT: '2' } }, 'minimax');
    expect(env).toMatchObject({ state: 'configured', config: { baseUrl: 'http://127.0.0.1:9', keySource: 'environment', timeoutMs: 2000 } });
    expect(resolveUpstream({ env: { TUBEKIT_MINIMAX_API_KEY: 'm', TUBEKIT_MINIMAX_BASE_URL: 'ftp://x' } }, 'minimax').state).toBe('invalid');
  });
});
