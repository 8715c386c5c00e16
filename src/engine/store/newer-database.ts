import { ServiceError } from '../../core/errors.js';
import type { Migration } from './migrations.js';

/**
 * A database some newer tubekit migrated (versions this one does not know) is refused: this
 * version's statements were not written for its schema.
 */
export function refuseNewerDatabase(description: string, list: Migration[], applied: Iterable<number>): void {
  const known = new Set(list.map((migration) => migration.version));
  const unknown = [...applied].filter((version) => !known.has(version)).sort((a, b) => a - b);
  if (unknown.length === 0) return;
  throw new ServiceError({
    status: 503,
    code: 'store_too_new',
    message: `The database ${description} was migrated by a newer version of tubekit (migration${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} unknown to this one).`,
    hint: 'Run the newer version of tubekit here too (every machine of a fleet upgrades to it); this version does not touch that database.',
  });
}
