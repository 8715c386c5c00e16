/**
 * The route table's `research` part: channel checks (monetization, managed networks) and terminated-channel search.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as research from '../schemas/research.js';

export const researchRoutes = routePart('research', {
  'monetization.external': defineRoute({
    method: 'GET', path: '/api/channel-external-monetization/:channel_id', encoding: 'query',
    input: research.externalMonetizationInput, response: research.externalMonetizationOutput,
    summary: 'What a channel sells outside the platform',
    // Stores its result and, on the live platform, spends the key's live-check quota.
    effect: 'write',
  }),
  'monetization.ads': defineRoute({
    method: 'GET', path: '/api/channel-monetized/:channel_id', encoding: 'none', input: research.channelIdInput,
    response: research.adMonetizationOutput, summary: 'Live ad-monetization check',
    effect: 'write', // stores the verdict; spends the live-check quota
  }),
  'cms.check': defineRoute({
    method: 'GET', path: '/api/channel-cms/:channel_id', encoding: 'query', input: research.cmsCheckInput,
    response: research.cmsCheckOutput, summary: 'Managed-network (CMS) status of a channel',
    effect: 'write', // a live check stores its verdict and spends the live-check quota
  }),
  'cms.networks': defineRoute({
    method: 'GET', path: '/api/cms-networks', encoding: 'query', input: research.networksInput,
    response: research.networksOutput, summary: 'Browse managed networks, or one by oid',
  }),
  'terminated.search': defineRoute({
    method: 'GET', path: '/api/terminated-channels', encoding: 'query', input: research.terminatedInput,
    response: research.terminatedOutput, summary: 'Search terminated channels',
  }),
  'terminated.show': defineRoute({
    method: 'GET', path: '/api/terminated-channels/:channel_id', encoding: 'none', input: research.channelIdInput,
    response: research.terminatedShowOutput, summary: 'One terminated channel\'s record (ours, beyond the spec)',
  }),
});
