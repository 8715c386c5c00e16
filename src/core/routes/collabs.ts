/**
 * The route table's `collabs` part: collab channels and videos.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as collabs from '../schemas/collabs.js';

export const collabsRoutes = routePart('collabs', {
  'collabs.top': defineRoute({
    method: 'GET', path: '/api/collabs/fastest-growing', encoding: 'query', input: collabs.collabsTopInput,
    response: collabs.collabsTopOutput, summary: 'Fastest-growing collab channels',
  }),
  'collabs.channel': defineRoute({
    method: 'GET', path: '/api/collabs/channel/:channel_id', encoding: 'query', input: collabs.collabsChannelInput,
    response: collabs.collabsChannelOutput, summary: 'Partners and collab videos of a channel',
  }),
  'collabs.feed': defineRoute({
    method: 'GET', path: '/api/collabs/feed', encoding: 'query', input: collabs.collabsFeedInput,
    response: collabs.collabsFeedOutput, summary: 'Newest collab videos',
  }),
});
