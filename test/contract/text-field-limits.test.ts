import path from 'node:path';
import { expect, it } from 'vitest';
import type { RouteInput, RouteName } from '../../src/core/routes.js';
import { filesUnder, upload, wavSample } from '../support/audio-fixtures.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';

/** Every text field of a clone or a generation has its own limit, refused by name, never cut. */
describeEachEngine('text field limits', (get) => {
  const sample = upload(wavSample(2));
  const altSample = upload(wavSample(30, { f0: 0 }));
  const stored = async (harness: EngineHarness) => ({
    samples: filesUnder(path.join(harness.engine.dataDir, 'samples')).length,
    generations: (await harness.engine.jobs.queue.hasWaiting(['generation'])),
  });

  async function refuses<N extends RouteName>(name: N, input: RouteInput<N>, field: RegExp): Promise<void> {
    const service = get().as('ultimate');
    const before = (await stored(get()));
    const error = await failure(service.call(name, input));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(field);
    expect((await stored(get()))).toEqual(before);
    const { voices } = await service.call('voices.stealth.list', {});
    expect(voices.filter((voice) => voice.is_cloned)).toEqual([]);
  }

  it('refuses a 1.1 MB tags field by name instead of storing a cut tag', async () => {
    await refuses('voices.stealth.clone', { displayName: 'Me', audioFile: sample, tags: 'a'.repeat(1_100_000) }, /^Invalid request: tags: /);
  });

  it('refuses a tag longer than 50 characters and more than 20 tags', async () => {
    await refuses('voices.stealth.clone', { displayName: 'Me', audioFile: sample, tags: `calm,${'b'.repeat(51)}` }, /^Invalid request: tags: each value must be at most 50 characters/);
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`).join(',');
    await refuses('voices.stealth.clone', { displayName: 'Me', audioFile: sample, tags: many }, /^Invalid request: tags: must list at most 20 values/);
  });

  it('refuses an oversize name, description or transcription of a stealth clone', async () => {
    await refuses('voices.stealth.clone', { displayName: 'n'.repeat(101), audioFile: sample }, /^Invalid request: displayName: must be at most 100 characters/);
    await refuses('voices.stealth.clone', { displayName: 'Me', audioFile: sample, description: 'd'.repeat(501) }, /^Invalid request: description: must be at most 500 characters/);
    await refuses('voices.stealth.clone', { displayName: 'Me', audioFile: sample, transcription: 't'.repeat(5001) }, /^Invalid request: transcription: must be at most 5000 characters/);
    await refuses('voices.stealth.clone', { displayName: 'Me', audioFile: sample, description: 'd'.repeat(1_100_000) }, /^Invalid request: description: /);
  });

  it('refuses an oversize alt voice name', async () => {
    await refuses('voices.alt.clone', { voice_name: 'n'.repeat(101), audio_file: altSample }, /^Invalid request: voice_name: must be at most 100 characters/);
  });

  it('refuses an oversize script or title and queues nothing', async () => {
    await refuses('generate', { script: 's'.repeat(100_001), voice_id: 'espeak-en-us' }, /^Invalid request: script: must be at most 100000 characters/);
    await refuses('generate', { script: 's'.repeat(1_100_000), voice_id: 'espeak-en-us' }, /^Invalid request: script: /);
    await refuses('generate', { script: 'Hello.', voice_id: 'espeak-en-us', custom_title: 't'.repeat(201) }, /^Invalid request: custom_title: must be at most 200 characters/);
  });
}, { postgres: true });
