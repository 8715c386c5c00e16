/**
 * The route table's `generation` part: text-to-speech generation.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as voices from '../schemas/voices.js';

export const generationRoutes = routePart('generation', {
  generate: defineRoute({
    method: 'POST', path: '/api/generate-simple', encoding: 'multipart', input: voices.generateInput,
    response: voices.generateOutput, summary: 'Queue a text-to-speech generation',
  }),
});
