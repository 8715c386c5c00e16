import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commaList, flag, integer } from '../../../src/core/schemas/params.js';
import { formatIssues } from '../../../src/core/schemas/format-issues.js';
import { channelJobStatusInput } from '../../../src/core/schemas/jobs.js';

describe('request parameter schemas', () => {
  it('accepts integers as numbers or text, within bounds, with a message naming the range', () => {
    const page = integer({ min: 1, max: 20 });
    expect(page.parse('3')).toBe(3);
    expect(page.parse(20)).toBe(20);
    for (const bad of ['0', '21', '2.5', 'abc', '', 2.5]) {
      const result = page.safeParse(bad);
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.issues[0]!.message).toBe('must be an integer from 1 to 20');
    }
  });

  it('reads flags from query-string words and refuses others', () => {
    const schema = flag();
    expect(schema.parse('true')).toBe(true);
    expect(schema.parse('1')).toBe(true);
    expect(schema.parse('false')).toBe(false);
    expect(schema.parse(false)).toBe(false);
    expect(schema.safeParse('maybe').success).toBe(false);
  });

  it('splits comma lists and caps their length', () => {
    expect(commaList().parse('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(commaList({ max: 2 }).safeParse('a,b,c').success).toBe(false);
  });

  it('caps wait_seconds at 30 and refuses non-integers', () => {
    expect(channelJobStatusInput.parse({ job_id: '4', wait_seconds: '45' })).toEqual({ job_id: 4, wait_seconds: 30 });
    expect(channelJobStatusInput.parse({ job_id: 4 })).toEqual({ job_id: 4, wait_seconds: 0 });
    expect(channelJobStatusInput.safeParse({ job_id: 4, wait_seconds: '1.5' }).success).toBe(false);
    expect(channelJobStatusInput.safeParse({ job_id: 4, wait_seconds: 'soon' }).success).toBe(false);
  });

  it('formats issues as "field: message" sentences, with missing fields called required', () => {
    const schema = z.object({ name: z.string(), folder_id: integer({ min: 1 }) });
    const input = { folder_id: 'x' };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    if (!result.success) expect(formatIssues(result.error.issues, input)).toBe('name: is required; folder_id: must be an integer of at least 1');
  });
});
