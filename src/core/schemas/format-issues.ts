import type { z } from 'zod';

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Turns zod issues into one sentence per field: `name: must not be empty`, `voice_id: is required`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], input?: unknown): string {
  const lines = issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
    const message = missing ? 'is required' : issue.message;
    return field ? `${field}: ${message}` : message;
  });
  return [...new Set(lines)].join('; ');
}
