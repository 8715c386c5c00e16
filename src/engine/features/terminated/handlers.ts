import type { Handlers } from '../../context.js';
import { searchTerminated } from './search.js';

export const terminatedHandlers: Handlers = {
  'terminated.search': (request, input) => searchTerminated(request, input),
};
