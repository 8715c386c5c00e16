/**
 * Building blocks for request schemas. Query strings and multipart fields arrive as strings
 * while in-process calls and JSON bodies carry real types, so every scalar accepts both
 * and converts; messages name the rule so a 400 says what to fix.
 */
import * as z from 'zod';

const integerText = /^[-+]?\d+$/;
const decimalText = /^[-+]?(\d+\.?\d*|\.\d+)$/;

function toInteger(value: unknown): unknown {
  if (typeof value === 'string' && integerText.test(value.trim())) return Number(value.trim());
  return value;
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'string' && decimalText.test(value.trim())) return Number(value.trim());
  return value;
}

function describeRange(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
  if (min !== undefined) return `an integer of at least ${min}`;
  if (max !== undefined) return `an integer of at most ${max}`;
  return 'an integer';
}

/** An integer (or integer text) within optional bounds. */
export function integer(options: { min?: number; max?: number } = {}) {
  const expected = describeRange(options.min, options.max);
  let schema = z.number({ error: `must be ${expected}` }).int({ error: `must be ${expected}` });
  if (options.min !== undefined) schema = schema.min(options.min, { error: `must be ${expected}` });
  if (options.max !== undefined) schema = schema.max(options.max, { error: `must be ${expected}` });
  return z.preprocess(toInteger, schema);
}

/** A number (or number text) within optional bounds. */
export function decimal(options: { min?: number; max?: number } = {}) {
  const expected =
    options.min !== undefined && options.max !== undefined
      ? `a number from ${options.min} to ${options.max}`
      : 'a number';
  let schema = z.number({ error: `must be ${expected}` });
  if (options.min !== undefined) schema = schema.min(options.min, { error: `must be ${expected}` });
  if (options.max !== undefined) schema = schema.max(options.max, { error: `must be ${expected}` });
  return z.preprocess(toNumber, schema);
}

const trueWords = new Set(['true', '1', 'yes', 'on']);
const falseWords = new Set(['false', '0', 'no', 'off', '']);

/** A boolean flag: true/false, 1/0, yes/no (query strings and form fields). */
export function flag() {
  return z.preprocess(
    (value) => {
      if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
      if (typeof value !== 'string') return value;
      const word = value.trim().toLowerCase();
      if (trueWords.has(word)) return true;
      if (falseWords.has(word)) return false;
      return value;
    },
    z.boolean({ error: 'must be true or false' }),
  );
}

/** One of a fixed set of words; the message lists them. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of: ${values.join(', ')}` });
}

/** Non-empty text with a maximum length, trimmed. */
export function text(options: { max?: number; min?: number; label?: string } = {}) {
  const min = options.min ?? 1;
  let schema = z.string({ error: 'must be text' }).trim();
  schema = schema.min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` });
  if (options.max !== undefined) schema = schema.max(options.max, { error: `must be at most ${options.max} characters` });
  return schema;
}

/** A canonical channel id: 24 characters starting with UC. */
export const channelId = z
  .string({ error: 'must be a channel id' })
  .trim()
  .regex(/^UC[A-Za-z0-9_-]{22}$/, { error: 'must be a 24-character channel id starting with UC' });

/** Longest value of a comma-separated list unless said: a language, a keyword, a channel id. */
export const LIST_ITEM_MAX = 100;

/**
 * Comma-separated text as a list (query strings), or a real array (in-process calls). Both the
 * number of values and each value's length are bounded; the message names the list, not an index.
 */
export function commaList(options: { max?: number; itemMax?: number } = {}) {
  const itemMax = options.itemMax ?? LIST_ITEM_MAX;
  let schema = z.array(z.string({ error: 'must be a list of text values' }).trim().min(1), { error: 'must be a comma-separated list' });
  if (options.max !== undefined) schema = schema.max(options.max, { error: `must list at most ${options.max} values` });
  const bounded = schema.refine((values) => values.every((value) => typeof value !== 'string' || value.length <= itemMax), {
    error: `each value must be at most ${itemMax} characters`,
    abort: true,
  });
  return z.preprocess((value) => {
    if (typeof value === 'string') return value.split(',').map((part) => part.trim()).filter(Boolean);
    return value;
  }, bounded);
}

/** A file received in a multipart request (or handed over in-process). */
export interface UploadedFile {
  filename: string;
  contentType?: string;
  data: Buffer;
}

export const uploadedFile = z.custom<UploadedFile>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    Buffer.isBuffer((value as UploadedFile).data) &&
    typeof (value as UploadedFile).filename === 'string',
  { error: 'must be an uploaded file' },
);

export const success = z.literal(true);

/**
 * The fields of a JSON body (plus the route's path parameters, named in `pathFields`). A field the
 * route does not take is refused with a 400 that names it and lists the fields it takes: a
 * misspelt or misnamed field (`type` for `alert_type`) must not pass silently as the default.
 */
export function jsonBody<const T extends z.ZodRawShape>(shape: T, options: { pathFields?: readonly string[] } = {}) {
  const accepted = Object.keys(shape).filter((field) => !options.pathFields?.includes(field));
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}; the body takes ${accepted.join(', ')}`
        : undefined,
  });
}

/** Endpoints whose only inputs are the key and the path. */
export const noInput = z.object({});
