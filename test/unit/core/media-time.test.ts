import { describe, expect, it } from 'vitest';
import { formatMediaTime, parseMediaTime } from '../../../src/core/media-time.js';

describe('parseMediaTime', () => {
  it.each([
    ['1:30', 90],
    ['01:30', 90],
    ['00:01:30', 90],
    ['1:02:03', 3723],
    ['90:00', 5400],
    ['90', 90],
    ['90s', 90],
    ['90.5', 90.5],
    ['1:30.25', 90.25],
    ['1m30s', 90],
    ['1m 30s', 90],
    ['2m', 120],
    ['1h', 3600],
    ['1h2m3s', 3723],
    ['1H2M3S', 3723],
    [' 45s ', 45],
    [0, 0],
    [90, 90],
    [12.3456, 12.346],
  ] as Array<[string | number, number]>)('reads %j as %d seconds', (input, seconds) => {
    expect(parseMediaTime(input)).toEqual({ ok: true, seconds });
  });

  it.each(['-5', '-1:30', -3])('refuses the negative time %j', (input) => {
    expect(parseMediaTime(input)).toMatchObject({ ok: false, message: expect.stringMatching(/must not be negative/) });
  });

  it.each(['', 'soon', '1:2:3:4', '1m30', 'm', '1.5.5', '12:3x', 'NaN', Number.NaN, Number.POSITIVE_INFINITY, null, true])('refuses %j, saying which forms work', (input) => {
    const time = parseMediaTime(input);
    expect(time.ok).toBe(false);
    if (!time.ok) expect(time.message).toMatch(/1:30, 00:01:30, 90, 90s or 1m30s/);
  });

  it('refuses minutes or seconds past 59 after the first field', () => {
    expect(parseMediaTime('1:75')).toMatchObject({ ok: false, message: expect.stringMatching(/go up to 59/) });
    expect(parseMediaTime('1:75:00')).toMatchObject({ ok: false });
  });

  it.each(['1h99m', '1h60m', '1m75s', '1m60s', '1h0m60s', '2h30m99.5s'])('refuses %j as it refuses 1:75: minutes and seconds after the first unit go up to 59', (input) => {
    expect(parseMediaTime(input)).toEqual({ ok: false, message: `"${input}" is not a valid time: minutes and seconds after the first unit go up to 59` });
  });

  it.each([
    ['99m', 5940],
    ['75s', 75],
    ['1h59m59.5s', 7199.5],
    ['100h', 360_000],
  ] as Array<[string, number]>)('lets the first unit run past 59: %j', (input, seconds) => {
    expect(parseMediaTime(input)).toEqual({ ok: true, seconds });
  });
});

describe('formatMediaTime', () => {
  it.each([
    [0, '0:00'],
    [90, '1:30'],
    [3723, '1:02:03'],
    [90.5, '1:30.5'],
    [864, '14:24'],
  ])('shows %d as %s', (seconds, text) => {
    expect(formatMediaTime(seconds)).toBe(text);
  });
});
