/**
 * The route table's `voices` part: voice lists, clones and deletions (stealth, alt and ElevenLabs).
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import { noInput } from '../schemas/params.js';
import * as voices from '../schemas/voices.js';

export const voicesRoutes = routePart('voices', {
  'voices.stealth.list': defineRoute({
    method: 'GET', path: '/api/voices/stealth', encoding: 'none', input: noInput,
    response: voices.stealthVoicesOutput, summary: 'Built-in stealth voices plus your clones',
  }),
  'voices.stealth.clone': defineRoute({
    method: 'POST', path: '/api/voices/clone', encoding: 'multipart', input: voices.stealthCloneInput,
    response: voices.stealthCloneOutput, summary: 'Clone a stealth voice from an audio sample',
    files: { audioFile: { maxBytes: voices.STEALTH_SAMPLE_MAX_BYTES } },
  }),
  'voices.stealth.delete': defineRoute({
    method: 'DELETE', path: '/api/voices/stealth/:voice_id', encoding: 'none', input: voices.voiceIdInput,
    response: voices.deleteOutput, summary: 'Delete one of your stealth clones',
  }),
  'voices.alt.list': defineRoute({
    method: 'GET', path: '/api/voices/alt', encoding: 'none', input: noInput,
    response: voices.altVoicesOutput, summary: 'Your alt voice clones', aliases: ['/api/voices/minimax'],
  }),
  'voices.alt.clone': defineRoute({
    method: 'POST', path: '/api/voices/alt/clone', encoding: 'multipart', input: voices.altCloneInput,
    response: voices.altCloneOutput, summary: 'Clone an alt voice from an audio sample',
    files: { audio_file: { maxBytes: voices.ALT_SAMPLE_MAX_BYTES } }, aliases: ['/api/voices/minimax/clone'],
  }),
  'voices.alt.delete': defineRoute({
    method: 'DELETE', path: '/api/voices/alt/:voice_id', encoding: 'none', input: voices.voiceIdInput,
    response: voices.deleteOutput, summary: 'Delete one of your alt clones', aliases: ['/api/voices/minimax/:voice_id'],
  }),
  'voices.catalog': defineRoute({
    method: 'GET', path: '/api/voices', encoding: 'query', input: voices.catalogInput,
    response: voices.catalogOutput, summary: 'The ElevenLabs voice catalog (filters and pages)', aliases: ['/api/voices/elevenlabs'],
  }),
  'voices.elevenlabs.clone': defineRoute({
    method: 'POST', path: '/api/voices/elevenlabs/clone', encoding: 'multipart', input: voices.elevenlabsCloneInput,
    response: voices.elevenlabsCloneOutput, summary: 'Clone an ElevenLabs voice from an audio sample (instant voice cloning)',
    files: { audio_file: { maxBytes: voices.ELEVENLABS_SAMPLE_MAX_BYTES } },
  }),
  'voices.elevenlabs.delete': defineRoute({
    method: 'DELETE', path: '/api/voices/elevenlabs/:voice_id', encoding: 'none', input: voices.voiceIdInput,
    response: voices.deleteOutput, summary: 'Delete one of your ElevenLabs clones',
  }),
});
