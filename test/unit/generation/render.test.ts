import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { renderSpeech } from '../../../src/engine/features/generation/render.js';
import { getSynthesizer } from '../../../src/engine/speech/index.js';

describe('renderSpeech', () => {
  it('returns an MP3 as long as the speech and one SRT cue per word', async () => {
    const script = 'Tom & Jerry <are> back, [[again]].';
    const rendered = await renderSpeech(await getSynthesizer(), script, { voice: 'en-us' });
    const meta = await parseBuffer(rendered.mp3, { mimeType: 'audio/mpeg', size: rendered.mp3.length }, { duration: true });
    expect(meta.format.codec).toMatch(/Layer 3/);
    expect(meta.format.duration!).toBeGreaterThan(rendered.durationSeconds * 0.95);
    expect(meta.format.duration!).toBeLessThan(rendered.durationSeconds + 0.2);
    // Markup characters are spoken text, not SSML or phoneme input: every word keeps its cue.
    const cues = rendered.srt.trim().split('\n\n').map((cue) => cue.split('\n')[2]);
    expect(cues.join(' ')).toBe(script);
    expect(rendered.words).toBe(cues.length);
  });

  it('stops when its signal is aborted', async () => {
    const aborted = AbortSignal.abort(new Error('worker stopping'));
    await expect(renderSpeech(await getSynthesizer(), 'Hello.', { voice: 'en-us' }, aborted)).rejects.toThrow('worker stopping');
  });
});
