/**
 * The local stand-in for the alt provider, used while no MiniMax key is configured: a voice
 * library in the engine's store (shared by a fleet, as the real provider would be; written
 * through the store, never around an open transaction) and eSpeak NG speech, with the faults
 * `alt-clone-upstream` and `alt-delete-upstream` standing in for an outage.
 */
import { randomBytes } from 'node:crypto';
import { upstreamError } from '../../../core/errors.js';
import type { EngineContext } from '../../context.js';
import { hasFault } from '../../faults.js';
import { speakWithEspeak } from '../../speech/providers/espeak-provider.js';
import type { SpeechProvider } from '../../speech/providers/speech-provider.js';

export const ALT_STAND_IN_LABEL = 'the local alt stand-in (eSpeak NG; no MiniMax key is configured)';

export class UpstreamFailure extends Error {
  override readonly name = 'UpstreamFailure';
}

export function localAltProvider(engine: EngineContext): SpeechProvider {
  return {
    label: ALT_STAND_IN_LABEL,
    standIn: true,
    speak: speakWithEspeak,
    async cloneVoice({ language = 'English' }) {
      if (hasFault(engine.settings, 'alt-clone-upstream')) {
        throw upstreamError(
          'The alt voice provider failed to clone the voice (upstream error). Nothing was saved; try again later.',
        );
      }
      const upstreamId = `mm-${randomBytes(8).toString('hex')}`;
      await engine.store.run('INSERT INTO alt_provider_voices (upstream_id, language, created_at) VALUES (?, ?, ?)', [upstreamId, language, engine.clock.now()]);
      return upstreamId;
    },
    async deleteVoice(upstreamId) {
      if (hasFault(engine.settings, 'alt-delete-upstream')) {
        throw new UpstreamFailure(`the alt provider did not delete ${upstreamId}`);
      }
      await engine.store.run('DELETE FROM alt_provider_voices WHERE upstream_id = ?', [upstreamId]);
    },
  };
}

/** Whether the provider still holds a voice (tests check that deletes reach it). */
export async function altProviderHasVoice(engine: EngineContext, upstreamId: string): Promise<boolean> {
  return (await engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM alt_provider_voices WHERE upstream_id = ?', [upstreamId]))!.n > 0;
}
