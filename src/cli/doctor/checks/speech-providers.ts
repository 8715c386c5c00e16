import type { UpstreamSpeechProvider } from '../../../engine/speech/providers/speech-settings.js';
import type { DoctorCheck } from '../check.js';

/**
 * An upstream speech provider of engines started here (ElevenLabs; MiniMax for alt voices): its
 * host, whether a key is set, and one light authenticated call. One that is not configured is
 * "not used", never a failure. Never shows the key.
 */
function speechProviderCheck(provider: UpstreamSpeechProvider, title: string, notUsed: string): DoctorCheck {
  return {
    id: provider,
    title,
    async run({ settings, speechSettings }) {
      if (settings.mode !== 'local') return { status: 'skip', summary: 'the remote service speaks with its own providers', needed: false };
      const { resolveUpstream, describeUpstream } = await import('../../../engine/speech/providers/speech-settings.js');
      const resolution = resolveUpstream(speechSettings(), provider);
      if (resolution.state === 'none') return { status: 'skip', summary: notUsed, fix: resolution.fix, needed: false };
      if (resolution.state === 'invalid') return { status: 'fail', summary: resolution.problem, fix: resolution.fix, needed: true };
      const { config } = resolution;
      const made =
        provider === 'elevenlabs'
          ? (await import('../../../engine/speech/providers/elevenlabs.js')).elevenLabsProvider(config)
          : (await import('../../../engine/speech/providers/minimax.js')).minimaxProvider(config);
      try {
        return { status: 'ok', summary: `${describeUpstream(config)}: ${await made.check!()}`, needed: true };
      } catch (error) {
        return { status: 'fail', summary: (error as Error).message, fix: `Check the key and the address (${describeUpstream(config)}).`, needed: true };
      }
    },
  };
}

export const elevenLabsCheck = speechProviderCheck('elevenlabs', 'ElevenLabs', 'not used (no key: provider=elevenlabs answers 503)');
export const minimaxCheck = speechProviderCheck('minimax', 'MiniMax (alt voices)', 'not used (no key: alt voices are the local stand-in)');
