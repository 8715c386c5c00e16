/**
 * What a route's input fields are when left out. The remote client leaves a query or form field
 * out when it holds its default: a server may test a parameter's presence (`refresh`), and one
 * that does would run a rate-capped live check for `refresh=false`.
 */
import type { z } from 'zod';

type Shape = Record<string, z.ZodType>;

/** The object shape of an input schema, through the pipes that refinements and transforms add. */
export function inputShape(schema: z.ZodType): Shape | undefined {
  const found = (schema as { shape?: Shape }).shape;
  if (found) return found;
  const def = (schema as { _zod?: { def?: { type?: string; in?: z.ZodType; out?: z.ZodType } } })._zod?.def;
  if (def?.type !== 'pipe') return undefined;
  return (def.in && inputShape(def.in)) ?? (def.out && inputShape(def.out));
}

const parsedText = (schema: z.ZodType, value: unknown): string | undefined => {
  const parsed = schema.safeParse(value);
  return parsed.success && parsed.data !== undefined ? JSON.stringify(parsed.data) : undefined;
};

/** Whether `value` is what the field becomes when it is left out (its default, as the schema reads both). */
export function isDefaultValue(shape: Shape | undefined, field: string, value: unknown): boolean {
  const schema = shape?.[field];
  if (!schema || value === undefined) return value === undefined;
  const fallback = parsedText(schema, undefined);
  return fallback !== undefined && parsedText(schema, value) === fallback;
}
