import type { z } from 'zod';

/** Turns zod issues into one sentence per field: `name: must not be empty`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message;
    return field ? `${field}: ${message}` : message;
  });
  return [...new Set(lines)].join('; ');
}
