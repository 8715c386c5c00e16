import type { DoctorCheck } from '../check.js';

/** The platform the engine reads, and whether it answers one light request (the sample world is offline). */
export const platformCheck: DoctorCheck = {
  id: 'platform',
  title: 'platform',
  async run({ settings, env, platform }) {
    if (settings.mode === 'remote') return { status: 'skip', summary: 'remote mode: the service reads the platform (see remote service)', needed: false };
    if ((await platform()) === 'sample') return { status: 'ok', summary: 'sample world (offline: nothing to reach)', needed: true };
    const { liveReach } = await import('../../../engine/platform/factory/media-tools.js');
    const reach = await liveReach(env);
    const where = env.TUBEKIT_PLATFORM_ORIGIN ? `live, through TUBEKIT_PLATFORM_ORIGIN ${reach.target}` : 'live';
    if (reach.ok) return { status: 'ok', summary: `${where}: answers (${reach.detail})`, needed: true };
    // Something answered, just not as the site does: say what, not that nothing is there.
    if (reach.status !== undefined) {
      return {
        status: 'fail',
        summary: `${where}: answers with HTTP ${reach.status} (${reach.detail})`,
        fix: 'Something other than the site answers there: check TUBEKIT_PLATFORM_ORIGIN and TUBEKIT_PROXY.',
        needed: true,
      };
    }
    return {
      status: 'fail',
      summary: `${where}: does not answer (${reach.detail})`,
      fix: 'Check the connection, or set TUBEKIT_PROXY; `tubekit engine platform` shows the data dir’s platform.',
      needed: true,
    };
  },
};
