import path from 'node:path';
import { expect, it } from 'vitest';
import { ALT_LANGUAGES } from '../../src/core/schemas/voices.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { altProviderHasVoice } from '../../src/engine/features/voices/alt-provider.js';
import { findOwnVoice } from '../../src/engine/features/voices/voice-store.js';
import { filesUnder, pngBytes, upload, wavSample } from '../support/audio-fixtures.js';
import { describeEachEngine, failure } from '../support/engines.js';

/** The shortest sample alt accepts, silent so analysis is instant. */
const thirtySeconds = upload(wavSample(30, { f0: 0 }));

describeEachEngine('alt voices', (get) => {
  const samples = () => filesUnder(path.join(get().engine.dataDir, 'samples', 'alt'));
  const withFault = async (fault: 'alt-clone-upstream' | 'alt-delete-upstream', run: () => Promise<void>) => {
    await setFault(get().engine.settings, fault);
    try {
      await run();
    } finally {
      await clearFault(get().engine.settings, fault);
    }
  };

  it('lists clones only: none before the first clone, saying they are the local stand-in\'s without a MiniMax key', async () => {
    expect(await get().as('professional').call('voices.alt.list', {})).toEqual({ success: true, voices: [], upstream: 'stand-in' });
  });

  it('refuses list, clone and delete without the Professional or Ultimate plan', async () => {
    const service = get().as('starter');
    for (const call of [
      () => service.call('voices.alt.list', {}),
      () => service.call('voices.alt.clone', { voice_name: 'Me', audio_file: thirtySeconds }),
      () => service.call('voices.alt.delete', { voice_id: 'alt_x' }),
    ]) {
      const error = await failure(call());
      expect(error.status).toBe(403);
      expect(error.code).toBe('plan_required');
    }
  });

  it('clones from a 30-second sample: the result has no created_at, the listing has it', async () => {
    const service = get().as('professional');
    const { voice } = await service.call('voices.alt.clone', {
      voice_name: 'Presenter',
      audio_file: upload(wavSample(30, { f0: 180 })),
      language: 'Spanish',
    });
    expect(voice).toEqual({ voice_id: expect.stringMatching(/^alt_/), name: 'Presenter', language: 'Spanish', is_cloned: true });
    const { voices } = await service.call('voices.alt.list', {});
    expect(voices).toEqual([{ ...voice, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/) }]);
  });

  it('defaults the language to English and accepts every one of the 36 names', async () => {
    expect(ALT_LANGUAGES).toHaveLength(36);
    const service = get().as('ultimate');
    expect((await service.call('voices.alt.clone', { voice_name: 'Default', audio_file: thirtySeconds })).voice.language).toBe('English');
    expect((await service.call('voices.alt.clone', { voice_name: 'Tl', audio_file: thirtySeconds, language: 'Tagalog' })).voice.language).toBe('Tagalog');
    const error = await failure(service.call('voices.alt.clone', { voice_name: 'X', audio_file: thirtySeconds, language: 'Klingon' as never }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/language: must be one of: English, Chinese, .*Slovenian/);
  });

  it('refuses a sample shorter than 30 seconds, saving nothing', async () => {
    const service = get().as('professional');
    const before = samples().length;
    const error = await failure(service.call('voices.alt.clone', { voice_name: 'Short', audio_file: upload(wavSample(29.5, { f0: 0 })) }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/audio_file: the sample is 29\.5 seconds long; alt clones need at least 30 seconds/);
    expect((await service.call('voices.alt.list', {})).voices).toEqual([]);
    expect(samples().length).toBe(before);
  });

  it('refuses a sample over 5 MB with a 400 naming the field', async () => {
    const big = Buffer.concat([wavSample(30, { f0: 0 }), Buffer.alloc(5 * 1024 * 1024)]);
    const error = await failure(get().as('professional').call('voices.alt.clone', { voice_name: 'Big', audio_file: upload(big) }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/audio_file: the file is larger than 5 MB/);
  });

  it('refuses what is not audio, and names need_noise_reduction when it is not a boolean', async () => {
    const service = get().as('professional');
    const png = await failure(service.call('voices.alt.clone', { voice_name: 'X', audio_file: upload(pngBytes, 'a.mp3') }));
    expect(png.message).toMatch(/audio_file: .*PNG/);
    const flag = await failure(
      service.call('voices.alt.clone', { voice_name: 'X', audio_file: thirtySeconds, need_noise_reduction: 'sometimes' as never }),
    );
    expect(flag.message).toMatch(/need_noise_reduction: must be true or false/);
  });

  it('allows 8 clones on Professional and 15 on Ultimate', async () => {
    for (const [plan, cap] of [['professional', 8], ['ultimate', 15]] as const) {
      const service = get().as(plan);
      for (let i = 0; i < cap; i++) await service.call('voices.alt.clone', { voice_name: `v${i}`, audio_file: thirtySeconds });
      const before = samples().length;
      const error = await failure(service.call('voices.alt.clone', { voice_name: 'extra', audio_file: thirtySeconds }));
      expect(error.status).toBe(403);
      expect(error.message).toMatch(new RegExp(`alt voice clone limit \\(${cap} on your plan\\)`));
      expect(samples().length).toBe(before);
    }
  });

  it('holds the clone cap under concurrent clones, leaving nothing behind at the provider', async () => {
    const service = get().as('professional');
    for (let i = 0; i < 7; i++) await service.call('voices.alt.clone', { voice_name: `v${i}`, audio_file: thirtySeconds });
    // The provider's library is in the engine's store (the fleet's database on Postgres).
    const providerVoices = async () => (await get().engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM alt_provider_voices'))!.n;
    const before = { provider: await providerVoices(), files: samples().length };
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map((i) => service.call('voices.alt.clone', { voice_name: `racer ${i}`, audio_file: thirtySeconds })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason.status).toBe(403);
    expect((await service.call('voices.alt.list', {})).voices).toHaveLength(8);
    expect(await providerVoices()).toBe(before.provider + 1);
    expect(samples().length).toBe(before.files + 1);
  });

  it('answers 502 when the upstream provider fails, and keeps nothing', async () => {
    const service = get().as('professional');
    const before = samples().length;
    await withFault('alt-clone-upstream', async () => {
      const error = await failure(service.call('voices.alt.clone', { voice_name: 'Down', audio_file: thirtySeconds }));
      expect(error.status).toBe(502);
      expect(error.code).toBe('upstream_error');
    });
    expect((await service.call('voices.alt.list', {})).voices).toEqual([]);
    expect(samples().length).toBe(before);
  });

  it('deletes only an owned clone, and asks the provider to delete it too', async () => {
    const owner = get().as('professional');
    const { voice } = await owner.call('voices.alt.clone', { voice_name: 'Mine', audio_file: thirtySeconds });
    const stored = (await findOwnVoice(get().engine.store, await ownerId(get().engine, voice.voice_id), 'alt', voice.voice_id))!;
    expect(await altProviderHasVoice(get().engine, stored.upstreamId!)).toBe(true);

    const stranger = await failure(get().as('ultimate').call('voices.alt.delete', { voice_id: voice.voice_id }));
    expect(stranger.status).toBe(404);
    expect(await owner.call('voices.alt.delete', { voice_id: voice.voice_id })).toEqual({ success: true });
    expect((await owner.call('voices.alt.list', {})).voices).toEqual([]);
    expect(await altProviderHasVoice(get().engine, stored.upstreamId!)).toBe(false);
    expect((await failure(owner.call('voices.alt.delete', { voice_id: voice.voice_id }))).status).toBe(404);
  });

  it('still deletes when the provider fails to', async () => {
    const owner = get().as('professional');
    const { voice } = await owner.call('voices.alt.clone', { voice_name: 'Mine', audio_file: thirtySeconds });
    await withFault('alt-delete-upstream', async () => {
      expect(await owner.call('voices.alt.delete', { voice_id: voice.voice_id })).toEqual({ success: true });
    });
    expect((await owner.call('voices.alt.list', {})).voices).toEqual([]);
  });
}, { postgres: true });

describeEachEngine('alt voices under the hosted service\'s name', (get, variant) => {
  // The hosted service's path names exist only over HTTP.
  it.runIf(variant.kind === 'remote')('answers /api/voices/minimax paths like /api/voices/alt', async () => {
    const harness = get();
    const key = (await harness.engine.identity.createUserWithKey('professional', [])).key;
    const form = new FormData();
    form.append('voice_name', 'Aliased');
    form.append('audio_file', new Blob([new Uint8Array(thirtySeconds.data)]), 'sample.wav');
    const headers = { authorization: `Bearer ${key}` };
    const cloned = await fetch(`${harness.baseUrl}/api/voices/minimax/clone`, { method: 'POST', body: form, headers });
    expect(cloned.status).toBe(200);
    const { voice } = (await cloned.json()) as { voice: { voice_id: string } };
    const listed = (await (await fetch(`${harness.baseUrl}/api/voices/minimax`, { headers })).json()) as { voices: unknown[] };
    expect(listed.voices).toHaveLength(1);
    const deleted = await fetch(`${harness.baseUrl}/api/voices/minimax/${voice.voice_id}`, { method: 'DELETE', headers });
    expect(deleted.status).toBe(200);
  });
}, { postgres: true });

async function ownerId(engine: { store: import('../../src/engine/store/store.js').Store }, voiceId: string): Promise<number> {
  return (await engine.store.get<{ user_id: number }>('SELECT user_id FROM voices WHERE public_id = ?', [voiceId]))!.user_id;
}
