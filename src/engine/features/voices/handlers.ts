import type { Handlers } from '../../context.js';
import { altUpstream, cloneAltVoice, deleteAltVoice, listAltVoices } from './alt.js';
import { cloneElevenLabsVoice, deleteElevenLabsVoice, listCatalog } from './elevenlabs.js';
import { cloneStealthVoice, deleteStealthVoice, listStealthVoices } from './stealth.js';

export const voiceHandlers: Handlers = {
  async 'voices.stealth.list'(request) {
    return { success: true, voices: await listStealthVoices(request) };
  },
  async 'voices.stealth.clone'(request, input) {
    return { success: true, ...(await cloneStealthVoice(request, input)) };
  },
  async 'voices.stealth.delete'(request, input) {
    await deleteStealthVoice(request, input.voice_id);
    return { success: true };
  },
  async 'voices.alt.list'(request) {
    return { success: true, voices: await listAltVoices(request), upstream: altUpstream(request) };
  },
  async 'voices.alt.clone'(request, input) {
    return { success: true, ...(await cloneAltVoice(request, input)) };
  },
  async 'voices.alt.delete'(request, input) {
    await deleteAltVoice(request, input.voice_id);
    return { success: true };
  },
  'voices.catalog': listCatalog,
  'voices.elevenlabs.clone': cloneElevenLabsVoice,
  async 'voices.elevenlabs.delete'(request, input) {
    await deleteElevenLabsVoice(request, input.voice_id);
    return { success: true };
  },
};
