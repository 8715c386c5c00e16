import type { Provider } from '../../../core/schemas/voices.js';
import type { RequestContext } from '../../context.js';
import type { Executor } from '../../store/store.js';
import { enforceCap } from '../access.js';
import { keepSample, removeSample } from './sample-files.js';
import { countVoices, insertVoice, type NewVoice } from './voice-store.js';

const capMessage: Record<Provider, string> = {
  stealth: 'You have reached the stealth voice clone limit',
  alt: 'You have reached the alt voice clone limit',
  elevenlabs: 'You have reached the ElevenLabs voice clone limit',
};

/** Serialises a user's clones of a provider on every machine: the cap check and the insert. */
const cloneLock = (userId: number, provider: Provider) => `voices:${userId}:${provider}`;

/** Throws 403 when the caller has no clone slot left for `provider`. */
export async function enforceCloneCap(request: RequestContext, provider: Provider, on: Executor = request.engine.store): Promise<void> {
  // ElevenLabs clones use the upstream providers' (alt) figures: each is a slot the operator pays for.
  const cap = provider === 'stealth' ? request.limits.stealthClones : request.limits.altClones;
  enforceCap(cap, await countVoices(on, request.user.userId, provider), capMessage[provider]);
}

/**
 * Stores a clone: the cap is checked again, the row inserted and the sample written in one
 * write transaction (holding the user's clone lock on a fleet), so concurrent clones cannot
 * overshoot the cap and a failure keeps nothing.
 */
export async function saveClone(request: RequestContext, voice: NewVoice, sample: Buffer): Promise<void> {
  const { store, filesDir } = request.engine;
  try {
    await store.transaction(
      async (tx) => {
        await enforceCloneCap(request, voice.provider, tx);
        await insertVoice(tx, voice);
        keepSample(filesDir, voice.samplePath, sample, request.engine.settings);
      },
      { locks: [cloneLock(voice.userId, voice.provider)] },
    );
  } catch (error) {
    removeSample(filesDir, voice.samplePath); // written, then the commit failed
    throw error;
  }
}
