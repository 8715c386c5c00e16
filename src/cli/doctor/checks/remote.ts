import type { DoctorCheck } from '../check.js';

/** Remote mode: the base URL answers, and the key (never printed) is accepted by a call that needs one. */
export const remoteCheck: DoctorCheck = {
  id: 'remote',
  title: 'remote service',
  async run({ settings }) {
    if (settings.mode !== 'remote') return { status: 'skip', summary: 'local mode (no base URL set)', needed: false };
    const { RemoteService } = await import('../../../remote/remote-service.js');
    const base = settings.baseUrl!;
    const service = new RemoteService({ baseUrl: base, apiKey: settings.apiKey, maxRetries: 0, timeoutMs: 15_000 });
    // Health is open to callers without a key: asked without one, it tells reachability from the key.
    const open = new RemoteService({ baseUrl: base, maxRetries: 0, timeoutMs: 15_000 });
    try {
      try {
        await open.call('health', {});
      } catch (error) {
        return { status: 'fail', summary: `${base} does not answer: ${(error as Error).message}`, fix: 'Check the base URL (--base-url, TUBEKIT_BASE_URL or the profile) and the connection.', needed: true };
      }
      if (!settings.apiKey) {
        return { status: 'fail', summary: `${base} answers; no API key is set`, fix: 'Set TUBEKIT_API_KEY, or run `tubekit auth login`.', needed: true };
      }
      try {
        await service.call('folders.list', {});
      } catch (error) {
        const status = (error as { status?: number }).status;
        // A plan without folders still proves the key is good.
        if (status !== 403) {
          return {
            status: 'fail',
            summary: `${base} answers; the key (from the ${settings.keySource}) is refused: ${(error as Error).message}`,
            fix: 'Set a valid key with TUBEKIT_API_KEY or `tubekit auth login`.',
            needed: true,
          };
        }
      }
      return { status: 'ok', summary: `${base} answers; the key (from the ${settings.keySource}) is accepted`, needed: true };
    } finally {
      await Promise.all([service.close(), open.close()]);
    }
  },
};
