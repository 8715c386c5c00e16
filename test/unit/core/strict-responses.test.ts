/** The contract suite's strict response check refuses undocumented keys at any depth, loose objects included. */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { checkResponse, strictly } from '../../support/strict-responses.js';

describe('strict response schemas', () => {
  const schema = z.object({
    success: z.literal(true),
    rows: z.array(z.looseObject({ id: z.string(), note: z.string().nullable().optional() })).nullable(),
    kind: z.discriminatedUnion('type', [z.object({ type: z.literal('a'), a: z.number() }), z.object({ type: z.literal('b') })]),
    figures: z.record(z.string(), z.unknown()),
    label: z.string().default('none'),
  });
  const body = { success: true, rows: [{ id: 'x' }], kind: { type: 'a', a: 1 }, figures: { anything: 1, goes: { here: true } } };

  it('accepts a body that has exactly the documented keys (records keep their open keys)', () => {
    expect(strictly(schema).safeParse(body).success).toBe(true);
  });

  it('refuses an undocumented key at the top, in a loose object inside an array, and in a union branch', () => {
    for (const extra of [
      { ...body, extra: 1 },
      { ...body, rows: [{ id: 'x', extra: 1 }] },
      { ...body, kind: { type: 'b', a: 1 } },
    ]) {
      expect(strictly(schema).safeParse(extra).success, JSON.stringify(extra)).toBe(false);
    }
    // The original schemas stay as they were.
    expect(schema.safeParse({ ...body, rows: [{ id: 'x', extra: 1 }] }).success).toBe(true);
  });

  it('names the route and the key when an answer drifts from its schema', () => {
    expect(() => checkResponse('health', { status: 'healthy', active_jobs: 0, total_jobs: 0, max_concurrent: 2, surprise: true })).toThrow(
      /health \(GET \/api\/health\).*strict[\s\S]*surprise/,
    );
  });
});
