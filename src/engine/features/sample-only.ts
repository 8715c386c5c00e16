/**
 * Features that make their answers from the sample world (downloads render its media, analysis
 * reads its speech) until the live platform can do them (issue 19, part 2): on a live data dir they
 * answer 501 `not_implemented_on_live` before doing or charging anything — never sample data.
 */
import { notImplementedOnLive } from '../../core/errors.js';
import type { RouteName } from '../../core/routes.js';
import type { Handler } from '../context.js';

export function sampleOnly<N extends RouteName>(what: string, handler: Handler<N>): Handler<N> {
  return async (request, input) => {
    const platform = await request.engine.platform();
    if (!platform.simulation) throw notImplementedOnLive(what);
    return handler(request, input);
  };
}
