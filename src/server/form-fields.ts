import type { z } from 'zod';
import { badRequest } from '../core/errors.js';

/**
 * Form bodies (multipart or urlencoded) sent to a JSON route: every value arrives as text, and a
 * repeated field as several. The route's input schema says what each field is; scalars already
 * accept their text (params.ts), so only lists and objects need typing here:
 * - a list field takes repeated fields, JSON text (`["UC…","UC…"]`) or comma-separated text;
 * - an object field takes JSON text (`{"min_subs":1000}`);
 * - any other field given twice is refused, naming it.
 */
export type FormFields = Record<string, string | string[]>;

/** As many fields as a JSON route's form may carry (a list of channel ids sent as repeated fields). */
export const FORM_BODY_FIELDS_MAX = 1000;

type Shape = 'list' | 'object' | 'scalar';

interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/** The shape a value must have for the schema, through optional, default and preprocess wrappers. */
function shapeOf(schema: z.ZodType): Shape {
  const def = defOf(schema);
  switch (def.type) {
    case 'array':
      return 'list';
    case 'object':
    case 'record':
      return 'object';
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return shapeOf(def.innerType!);
    case 'pipe':
      // z.preprocess(fn, schema) is transform → schema; schema.transform(fn) is schema → transform.
      return shapeOf(defOf(def.in!).type === 'transform' ? def.out! : def.in!);
    default:
      return 'scalar';
  }
}

/** The named fields of an input schema (an object, possibly refined). */
function fieldSchemas(schema: z.ZodType): Record<string, z.ZodType> {
  const def = defOf(schema);
  if (def.type === 'object') return def.shape ?? {};
  if (def.type === 'pipe') return fieldSchemas(defOf(def.in!).type === 'transform' ? def.out! : def.in!);
  return {};
}

export function typeFormFields(fields: FormFields, schema: z.ZodType): Record<string, unknown> {
  const schemas = fieldSchemas(schema);
  const typed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    // A multipart part sent as application/json arrives parsed: it is typed already.
    if (typeof value !== 'string' && !Array.isArray(value)) {
      typed[name] = value;
      continue;
    }
    const fieldSchema = Object.hasOwn(schemas, name) ? schemas[name] : undefined;
    // Unknown fields pass as they are: the schema decides whether they are refused.
    const shape = fieldSchema ? shapeOf(fieldSchema) : 'scalar';
    if (shape === 'list') typed[name] = listValue(name, value);
    else if (Array.isArray(value)) {
      throw badRequest(`Invalid request: ${name}: is given ${value.length} times; send it once.`);
    } else if (shape === 'object') typed[name] = objectValue(name, value);
    else typed[name] = value;
  }
  return typed;
}

function listValue(name: string, value: string | string[]): unknown[] {
  const values = Array.isArray(value) ? value : [value];
  return values.flatMap((text) => {
    if (text.trimStart().startsWith('[')) {
      const parsed = parseJson(name, text, 'a JSON array');
      if (!Array.isArray(parsed)) throw badRequest(`Invalid request: ${name}: must be a JSON array, repeated fields or comma-separated text.`);
      return parsed;
    }
    return text.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
  });
}

function objectValue(name: string, text: string): unknown {
  const parsed = parseJson(name, text, 'a JSON object');
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest(`Invalid request: ${name}: must be a JSON object (send it as JSON text).`);
  }
  return parsed;
}

function parseJson(name: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Invalid request: ${name}: must be ${what} in a form field (${(error as Error).message}).`);
  }
}
