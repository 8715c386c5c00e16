import type { Handlers } from '../../context.js';
import { searchTerminated, showTerminated } from './search.js';

export const terminatedHandlers: Handlers = {
  'terminated.search': (request, input) => searchTerminated(request, input),
  'terminated.show': (request, input) => showTerminated(request, input.channel_id),
};
