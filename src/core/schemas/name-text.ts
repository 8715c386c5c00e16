/**
 * The text rules of every name a user gives an object (folders, voices, alerts): well-formed
 * Unicode, normalised to NFC, trimmed, printable, and with something visible in it. Each refusal
 * says which rule failed and names the offending character, so a 400 tells the user what to fix.
 */
import * as z from 'zod';

/** Bidirectional embeddings, overrides and isolates: they can make a name read as another. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
const CONTROL = /\p{Cc}/u;
/** With the u flag a paired surrogate is one astral code point; only an unpaired one is Cs. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Characters that render as nothing: format characters, fillers, variation selectors, soft hyphen. */
const INVISIBLE = /[\p{Cf}\p{Z}\s\u115F\u1160\u3164\uFFA0\u034F\u17B4\u17B5\u180B-\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first rule `name` breaks, in words; undefined when it keeps them all. Expects NFC, trimmed text. */
export function nameProblem(name: string): string | undefined {
  const lone = LONE_SURROGATE.exec(name)?.[0];
  if (lone) {
    return `contains an unpaired surrogate (${codePoint(lone)}), which is not a character: send valid UTF-8 or UTF-16 text`;
  }
  const control = CONTROL.exec(name);
  if (control) return `contains a control character (${codePoint(control[0])}); names must be printable text on one line`;
  const bidi = BIDI_CONTROL.exec(name);
  if (bidi) return `contains a bidirectional control (${codePoint(bidi[0])}), which can disguise how a name reads; remove it`;
  if (!VISIBLE.test(name.replace(INVISIBLE, ''))) {
    return 'has no visible character (only spaces or invisible characters such as U+200B): give it a name people can read';
  }
  return undefined;
}

/** A user-given name: at most `max` characters after NFC normalisation and trimming. */
export function nameText(options: { max: number }) {
  return z
    .string({ error: 'must be text' })
    .transform((value) => (LONE_SURROGATE.test(value) ? value : value.normalize('NFC')).trim())
    .pipe(
      z
        .string()
        .min(1, { error: 'must not be empty' })
        .max(options.max, { error: `must be at most ${options.max} characters` })
        .superRefine((value, context) => {
          const problem = nameProblem(value);
          if (problem) context.addIssue({ code: 'custom', message: problem });
        }),
    );
}
