import { expect, it } from 'vitest';
import { describeEachEngine, failure } from '../support/engines.js';

// Found by the fuzz suite: a ranking refused for its language had already computed and stored the
// growth snapshot of the world.
describeEachEngine(
  'collabs: a refused ranking',
  (get) => {
    it('stores no growth snapshot when its language is unknown', async () => {
      const refused = await failure(get().as('starter').call('collabs.top', { language: 'Elvish' }));
      expect(refused.status).toBe(400);
      expect(refused.message).toMatch(/language: "Elvish" is not a language/);
      const runs = get().engine.db.prepare('SELECT COUNT(*) AS n FROM collab_growth_runs').get() as { n: number };
      const rows = get().engine.db.prepare('SELECT COUNT(*) AS n FROM collab_growth').get() as { n: number };
      expect({ runs: runs.n, rows: rows.n }).toEqual({ runs: 0, rows: 0 });
    });
  },
  { world: { seed: 5, channels: 300, terminated: 0 }, postgres: true },
);
