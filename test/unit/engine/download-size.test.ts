import { describe, expect, it } from 'vitest';
import { checkDownloadSize, estimatedBytes, NOMINAL_KBPS } from '../../../src/engine/limits/download-size.js';
import { defaultPlanTable } from '../../../src/engine/limits/plans.js';

const limits = defaultPlanTable.starter;

describe('the download size rule', () => {
  it('is the same on every plan: 3 hours and 500 MB', () => {
    for (const plan of Object.values(defaultPlanTable)) expect([plan.downloadMaxSeconds, plan.downloadMaxBytes]).toEqual([10_800, 500_000_000]);
  });

  it.each([
    [360, 4830],
    [480, 3012],
    [720, 1522],
    [1080, 864],
  ] as const)('lets %ip video run to %i s (500 MB at its nominal bitrate), not a second more', (height, seconds) => {
    expect(() => checkDownloadSize({ format: 'video', height }, seconds, limits)).not.toThrow();
    expect(estimatedBytes({ format: 'video', height }, seconds)).toBeLessThanOrEqual(500_000_000);
    expect(() => checkDownloadSize({ format: 'video', height }, seconds + 1, limits)).toThrow(/over the 500 MB download limit/);
  });

  it('limits audio by length: 3 hours, then says how much shorter', () => {
    expect(NOMINAL_KBPS.audio * 10_800 * 125).toBeLessThan(500_000_000);
    expect(() => checkDownloadSize({ format: 'audio' }, 10_800, limits)).not.toThrow();
    expect(() => checkDownloadSize({ format: 'audio' }, 11_000, limits)).toThrow(
      'the requested section (3:03:20) is 3:03:20 of media, over the 3:00:00 download limit. Clip it with start and end to at most 3:00:00 — 3:20 shorter.',
    );
  });

  it('tells a too-long 1080p section how far to clip', () => {
    expect(() => checkDownloadSize({ format: 'video', height: 1080 }, 1254, limits)).toThrow(
      /would be about 725 MB of 1080p video, over the 500 MB download limit\. Clip it with start and end to at most 14:24 — 6:30 shorter\./,
    );
  });
});
