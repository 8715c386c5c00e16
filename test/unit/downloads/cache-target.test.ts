import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { RequestContext } from '../../../src/engine/context.js';
import { cacheTarget } from '../../../src/engine/features/downloads/plan.js';
import { openDatabase } from '../../../src/engine/store/database.js';
import { Settings } from '../../../src/engine/store/settings.js';
import { tempDataDir } from '../../support/engines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it('expects a clip of a fractional length to take whole milliseconds (the slot stores them in an integer column)', () => {
  const dir = tempDataDir();
  dirs.push(dir);
  const request = { engine: { settings: Settings.onSqlite(openDatabase(path.join(dir, 'tubekit.db'))) } } as unknown as RequestContext;
  const wanted = { videoId: 'aVideoId001', title: 'A video', format: 'audio' as const, height: null };
  // 2.0005 s at 1,000 ms a second: 2000.5 ms of fetching before rounding.
  const target = cacheTarget(request, wanted, { start: 10, end: 12.0005, startSeconds: 10, endSeconds: 12.0005 }, 60, 1000);
  expect(Number.isInteger(target.expectedMs)).toBe(true);
  expect(target.expectedMs).toBeGreaterThan(1000 + 2000.5);
});
