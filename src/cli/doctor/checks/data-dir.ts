import fs from 'node:fs';
import path from 'node:path';
import type { DoctorCheck } from '../check.js';

/** The embedded engine writes its database, keys and files there. */
export const dataDirCheck: DoctorCheck = {
  id: 'data-dir',
  title: 'data dir',
  async run({ settings }) {
    if (settings.mode !== 'local') return { status: 'skip', summary: 'remote mode: the service keeps the data', needed: false };
    const dir = settings.dataDir;
    // The nearest folder that exists is where the data dir would be made.
    let existing = dir;
    while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
    const probe = path.join(existing, `.tubekit-doctor-${process.pid}`);
    try {
      fs.writeFileSync(probe, '');
      fs.rmSync(probe);
    } catch (error) {
      return {
        status: 'fail',
        summary: `${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'} in ${existing})`,
        fix: 'Give your user write access to it, or pick another with --data-dir or TUBEKIT_DATA_DIR.',
        needed: true,
      };
    }
    return { status: 'ok', summary: existing === dir ? `${dir} (writable)` : `${dir} (not made yet; ${existing} is writable)`, needed: true };
  },
};

/** Below this, downloads and renders are likely to fail. */
const LOW_BYTES = 1_000_000_000;
const TOO_LOW_BYTES = 100_000_000;

export const diskSpaceCheck: DoctorCheck = {
  id: 'disk-space',
  title: 'free space',
  async run({ settings }) {
    if (settings.mode !== 'local') return { status: 'skip', summary: 'remote mode', needed: false };
    let existing = settings.dataDir;
    while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
    const stats = await fs.promises.statfs(existing);
    const free = stats.bavail * stats.bsize;
    const shown = `${(free / 1e9).toFixed(1)} GB free on the data dir's disk`;
    if (free < TOO_LOW_BYTES) return { status: 'fail', summary: shown, fix: 'Free some space (old downloads under cdn/downloads can go), or move the data dir.', needed: true };
    if (free < LOW_BYTES) return { status: 'warn', summary: shown, fix: 'Downloads of long videos need more: free some space.', needed: true };
    return { status: 'ok', summary: shown, needed: true };
  },
};

export const databaseCheck: DoctorCheck = {
  id: 'database',
  title: 'database',
  async run({ settings }) {
    if (settings.mode !== 'local') return { status: 'skip', summary: 'remote mode', needed: false };
    const [{ databaseFile }, { inspectDatabase }] = await Promise.all([import('../../../engine/paths.js'), import('../../../engine/store/inspect.js')]);
    const file = databaseFile(settings.dataDir);
    const inspection = inspectDatabase(file);
    if (!inspection.exists) return { status: 'ok', summary: `${file} not made yet (made on first use)`, needed: true };
    if (inspection.quickCheck.length === 1 && inspection.quickCheck[0] === 'ok') return { status: 'ok', summary: `${file} (integrity ok)`, needed: true };
    return {
      status: 'fail',
      summary: `${file} is damaged: ${inspection.quickCheck.slice(0, 3).join('; ')}`,
      fix: 'Restore it from a backup, or move the data dir aside and start a new one (tubekit --data-dir <new dir>).',
      needed: true,
    };
  },
};
