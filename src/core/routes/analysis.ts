/**
 * The route table's `analysis` part: aI video analysis.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as media from '../schemas/media.js';

export const analysisRoutes = routePart('analysis', {
  'analysis.submit': defineRoute({
    method: 'POST', path: '/api/analyze-video', encoding: 'json', input: media.analyzeInput,
    response: media.analyzeOutput, summary: 'Queue an AI analysis of a video (free during preview)',
    openToAllPlans: true,
  }),
});
