import type { Handlers } from '../../context.js';
import { collabChannel } from './channel-view.js';
import { collabFeed } from './feed.js';
import { fastestGrowing } from './rankings.js';

export const collabHandlers: Handlers = {
  'collabs.top'(request, input) {
    return { success: true, ...fastestGrowing(request, input) };
  },
  'collabs.channel'(request, input) {
    return { success: true, ...collabChannel(request, input) };
  },
  'collabs.feed'(request, input) {
    return { success: true, ...collabFeed(request, input) };
  },
};
