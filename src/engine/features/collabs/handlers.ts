import type { Handlers } from '../../context.js';
import { collabChannel } from './channel-view.js';
import { collabFeed } from './feed.js';
import { fastestGrowing } from './rankings.js';

export const collabHandlers: Handlers = {
  async 'collabs.top'(request, input) {
    return { success: true, ...(await fastestGrowing(request, input)) };
  },
  async 'collabs.channel'(request, input) {
    return { success: true, ...(await collabChannel(request, input)) };
  },
  async 'collabs.feed'(request, input) {
    return { success: true, ...(await collabFeed(request, input)) };
  },
};
