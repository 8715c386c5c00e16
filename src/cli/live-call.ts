/**
 * A call that may do live work on the service (a managed-network live check, an ad check, the
 * monetization classifier: up to a minute on the hosted service). On a terminal a spinner on stderr
 * shows the elapsed time until the answer comes; Ctrl-C abandons the call and exits 3.
 */
import type { RouteInput, RouteName, RouteOutput } from '../core/routes.js';
import type { CliApp } from './app.js';
import { cancelled } from '../core/client-errors.js';

export async function callLive<N extends RouteName>(
  app: CliApp,
  name: N,
  input: RouteInput<N>,
  label: string,
  interrupts: NodeJS.EventEmitter = process,
): Promise<RouteOutput<N>> {
  const started = Date.now();
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new Error('interrupted'));
  interrupts.on('SIGINT', onInterrupt);
  const spinner = await app.io.spinner(label);
  const ticker = setInterval(() => spinner.update(`${label} · ${Math.floor((Date.now() - started) / 1000)}s`), 1000);
  try {
    return await app.call(name, input, { signal: stop.signal });
  } catch (error) {
    if (stop.signal.aborted) throw cancelled(`Stopped waiting: ${label.toLowerCase()} was abandoned.`, 'Run the command again to check.');
    throw error;
  } finally {
    clearInterval(ticker);
    spinner.stop();
    interrupts.off('SIGINT', onInterrupt);
  }
}
