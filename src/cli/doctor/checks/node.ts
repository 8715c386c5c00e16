import type { DoctorCheck } from '../check.js';

/** The Node versions tubekit supports (package.json engines). */
const MINIMUM = [20, 19] as const;

export const nodeCheck: DoctorCheck = {
  id: 'node',
  title: 'Node.js',
  async run() {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const ok = major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
    return ok
      ? { status: 'ok', summary: `${process.version} (${process.execPath})`, needed: true }
      : { status: 'fail', summary: `${process.version} is too old`, fix: `Install Node ${MINIMUM.join('.')} or newer (https://nodejs.org, or your package manager).`, needed: true };
  },
};
