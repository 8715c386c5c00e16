/** A provider the engine has no (usable) key for: every use is a 503 saying how to configure it. */
import { ServiceError } from '../../../core/errors.js';
import type { SpeechProvider } from './speech-provider.js';

export function unconfiguredProvider(label: string, problem: string, fix: string): SpeechProvider {
  const refuse = async (): Promise<never> => {
    throw new ServiceError({ status: 503, code: 'unavailable', message: `${problem} ${fix}`, hint: fix });
  };
  return { label, speak: refuse, cloneVoice: refuse, deleteVoice: refuse, catalog: refuse };
}
