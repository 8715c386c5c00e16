/**
 * Adversarial values for any field of any route: wrong JSON types, missing and extra fields,
 * huge strings, odd unicode, numbers out of range, and near-valid words so some requests get past
 * the first check.
 */
import fc from 'fast-check';
import type { z } from 'zod';

/** Words the schemas accept somewhere: enum members, booleans as text, id shapes, time forms. */
const plausibleWords = [
  'EN_US', 'XX_XX', 'English', 'Klingon', 'stealth', 'alt', 'minimax', 'video', 'audio', 'subtitles', '720', '720p', '4k',
  'low', 'default', 'longform', 'shorts', 'outlier', 'true', 'false', 'yes', '1', '0', '-1', '1.5', '1e309', '0x10',
  '1:30', '99:99', '-5', '1m30s', 'espeak-en-us', 'clone_1', 'job_1', 'UCabcdefghijklmnopqrstuv', 'UC', '@handle',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://youtu.be/', 'javascript:alert(1)', 'file:///etc/passwd',
];

/** Text that trips normalisation, storage or logging. */
const oddText = [
  '', ' ', '\u0000', '\u200b', '\u202e', '\ud800', '\udfff', 'Café', 'CAFÉ', 'e\u0301', '🎙️👩‍👩‍👧', 'ß', 'İ',
  '\r\n', '../../etc/passwd', '%00', "'; DROP TABLE users; --", '<script>', '${jndi:x}', 'a,b,,c', ',,,',
];

const hugeText = fc.constantFrom(101, 501, 5_001, 100_001, 300_000).map((length) => 'x'.repeat(length));

export const textValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string(), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.constantFrom(...plausibleWords), weight: 4 },
  { arbitrary: fc.constantFrom(...oddText), weight: 3 },
  { arbitrary: hugeText, weight: 1 },
);

export const numberValue: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: -3, max: 120 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MIN_VALUE),
);

const scalarValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: textValue, weight: 5 },
  { arbitrary: numberValue, weight: 3 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);

/** Any JSON value a client could send for a field, nested a little. */
export const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: scalarValue, weight: 8 },
  { arbitrary: fc.array(scalarValue, { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.array(textValue, { minLength: 20, maxLength: 60 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalarValue, { maxKeys: 3 }), weight: 1 },
);

/** Field names a route does not declare, including ones that poison objects. */
const extraName = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'api_key', 'id', 'user_id', 'success'),
);

/** Candidates for valid values: each field keeps those its own schema accepts. */
const candidates: unknown[] = [
  ...plausibleWords, 'Fuzz folder', 'en', 'en,de', 'calm,slow', 'Hello there.', '0:05', 1, 2, 3, 5, 10, 25, 0, true, false,
  {}, { min_subs: 1000 }, { languages: 'en' },
];

/** A form or query value: text as it is, anything else as its JSON. */
export function asText(value: unknown, max = Infinity): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.slice(0, max);
}

export interface FieldOptions {
  /** Values of the fuzzed data dir (ids of its world's channels) to try on every field. */
  known: unknown[];
  /** The encoding carries text only (query string, form): candidates are tried as text. */
  textual: boolean;
}

/** The candidates a field's schema accepts, in the form the encoding carries them. */
function validValues(schema: z.ZodType | undefined, options: FieldOptions): unknown[] {
  if (schema === undefined) return [];
  const values = [...candidates, ...options.known].map((value) => (options.textual ? asText(value) : value));
  return [...new Set(values)].filter((value) => schema.safeParse(value).success);
}

/** A field's value: one its schema accepts most of the time, so requests get past the first check. */
export function valueFor(schema: z.ZodType | undefined, options: FieldOptions): fc.Arbitrary<unknown> {
  const valid = validValues(schema, options);
  if (valid.length === 0) return fieldValue;
  return fc.oneof({ arbitrary: fc.constantFrom(...valid), weight: 4 }, { arbitrary: fieldValue, weight: 1 });
}

const withoutAbsent = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));

/**
 * The route's own fields plus a few it does not know, in three mixes: all sound (valid or absent,
 * so the handler runs), one field wrong and the rest sound (each check on its own), or anything.
 */
export function fieldsFor(shape: Record<string, z.ZodType>, options: FieldOptions): fc.Arbitrary<Record<string, unknown>> {
  const names = Object.keys(shape);
  const valid = Object.fromEntries(names.map((name) => [name, validValues(shape[name], options)]));
  const sound = fc
    .record(Object.fromEntries(names.filter((name) => valid[name]!.length > 0).map((name) => [name, fc.option(fc.constantFrom(...valid[name]!), { freq: 4, nil: undefined })])))
    .map(withoutAbsent);
  const oneWrong = names.length === 0 ? sound : fc.tuple(sound, fc.constantFrom(...names), fieldValue).map(([values, name, wrong]) => ({ ...values, [name]: wrong }));
  const anything = fc.record(Object.fromEntries(names.map((name) => [name, fc.option(fieldValue, { nil: undefined })]))).map(withoutAbsent);
  const extra = fc.oneof(
    { arbitrary: fc.constant({}), weight: 3 },
    { arbitrary: fc.dictionary(extraName, fieldValue, { maxKeys: 3 }), weight: 1 },
  );
  return fc.tuple(fc.oneof(sound, oneWrong, anything), extra).map(([mine, others]) => ({ ...others, ...mine }));
}

/** A path segment: ids in and out of range, words, unicode, and broken percent-encoding (a URL cannot carry a lone surrogate). */
export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.integer({ min: -2, max: 6 }).map(String), weight: 3 },
  { arbitrary: fc.constantFrom('9'.repeat(30), '1e3', '0x1', '1.5', ' 1', 'NaN', 'null', 'undefined'), weight: 2 },
  { arbitrary: textValue.filter((text) => text.length > 0 && text.length < 5_000).map((text) => encodeURIComponent(text.toWellFormed())), weight: 4 },
  { arbitrary: fc.constantFrom('%ZZ', '%', '%E0%A4%A', '..', '%2e%2e', 'a%2Fb', '%00', '%C0%AF'), weight: 2 },
);
