import type { Provider } from '../../../core/schemas/voices.js';
import type { RequestContext } from '../../context.js';
import { enforceCap } from '../access.js';
import { keepSample, removeSample } from './sample-files.js';
import { countVoices, insertVoice, type NewVoice } from './voice-store.js';

const capMessage: Record<Provider, string> = {
  stealth: 'You have reached the stealth voice clone limit',
  alt: 'You have reached the alt voice clone limit',
};

/** Throws 403 when the caller has no clone slot left for `provider`. */
export function enforceCloneCap(request: RequestContext, provider: Provider): void {
  const cap = provider === 'stealth' ? request.limits.stealthClones : request.limits.altClones;
  enforceCap(cap, countVoices(request.engine.db, request.user.userId, provider), capMessage[provider]);
}

/**
 * Stores a clone: the cap is checked again, the row inserted and the sample written in one
 * write transaction, so concurrent clones cannot overshoot the cap and a failure keeps nothing.
 */
export function saveClone(request: RequestContext, voice: NewVoice, sample: Buffer): void {
  const { db, dataDir } = request.engine;
  const save = db.transaction(() => {
    enforceCloneCap(request, voice.provider);
    insertVoice(db, voice);
    keepSample(dataDir, voice.samplePath, sample, request.engine.settings);
  });
  try {
    save.immediate();
  } catch (error) {
    removeSample(dataDir, voice.samplePath); // written, then the commit failed
    throw error;
  }
}
