import { badRequest } from '../core/errors.js';
import { FORM_BODY_FIELDS_MAX, type FormFields } from './form-fields.js';

/** Names that would reach an object's prototype if copied into an input object. */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * An `application/x-www-form-urlencoded` body as fields; a repeated name keeps every value in
 * order. The body limit has already applied (Fastify's bodyLimit, as for JSON).
 */
export function parseUrlEncodedForm(body: string): FormFields {
  const fields: FormFields = Object.create(null) as FormFields;
  let count = 0;
  for (const [name, value] of new URLSearchParams(body)) {
    if (++count > FORM_BODY_FIELDS_MAX) throw badRequest(`Invalid request: the form has more than ${FORM_BODY_FIELDS_MAX} fields.`);
    if (PROTOTYPE_NAMES.has(name)) throw badRequest('Invalid request: a form field is named after an object property (such as __proto__).');
    const earlier = fields[name];
    fields[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return fields;
}
