import { ServiceError } from '../core/errors.js';
import type { CliApp } from './app.js';

/**
 * A 401's hint from the service speaks to any client; the person at this CLI needs to know where
 * tubekit took the key from and how to give it another.
 */
export function withAuthHint(error: unknown, app: CliApp): unknown {
  // A key that works but lacks a scope keeps the service's own hint (which scope, how to get it).
  if (!(error instanceof ServiceError) || error.status !== 401 || error.code === 'scope_required') return error;
  let settings;
  try {
    settings = app.settings;
  } catch {
    return error;
  }
  const hint =
    settings.mode === 'remote'
      ? `The key came from: ${settings.keySource}. Set TUBEKIT_API_KEY, run \`tubekit auth login\`, or point TUBEKIT_API_KEY_FILE at a key file.`
      : 'TUBEKIT_API_KEY is not a key of this engine: unset it to act as the default local user, or create one with `tubekit engine keys create`.';
  return new ServiceError({ status: error.status, code: error.code, message: error.message, hint });
}
