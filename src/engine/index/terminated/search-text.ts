/**
 * How titles become searchable text, and keywords become FTS5 queries — one module, so the index
 * and the queries always cut text the same way.
 *
 * The FTS5 tokenizer is `unicode61 remove_diacritics 2`: case and accents fold ("lucia" finds
 * "Lucía", "jurgen" finds "Jürgen"), and any run of letters or digits is a token, whatever its
 * script (Cyrillic, Arabic, Devanagari, Thai… words). Scripts written without spaces (Chinese,
 * Japanese, Korean) would make a whole title one token, so before indexing each of their
 * characters is set apart; a keyword in those scripts becomes the phrase of its characters, which
 * finds it anywhere inside a title ("チャンネル" in "さくらチャンネル").
 */

/** Characters of scripts written without spaces: Han, kana (with the long-vowel mark), Hangul. */
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]+/gu;
/** What unicode61 splits on: anything that is not a letter, digit, mark or private-use character. */
const SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Co}]+/u;

const ASCII = /^[\x00-\x7f]*$/;

/** The text as it is indexed: unspaced scripts cut into single characters. */
export function searchableText(text: string): string {
  return ASCII.test(text) ? text : text.replace(UNSPACED_RUN, (run) => ` ${[...run].join(' ')} `);
}

/** Tokens of a text as the index sees them (for counting the words of a title). */
export function tokensOf(text: string): string[] {
  return searchableText(text)
    .split(SEPARATORS)
    .filter((token) => token.length > 0);
}

/** One comma-separated keyword of `q`, ready for FTS5. */
export interface SearchKeyword {
  /** As the user typed it (trimmed). */
  text: string;
  /** FTS5 expression: every word of the keyword, in any order (apply it to columns with the helpers below). */
  words: string;
  /** How many tokens the keyword has (its share of a title, for the similarity score). */
  tokens: number;
}

const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * A keyword's FTS5 expression: its words AND-ed, each quoted (so no user text is read as query
 * syntax; a word with inner punctuation, like "one-pot", or in an unspaced script becomes a phrase).
 * Null when the keyword has no searchable characters at all.
 */
export function parseKeyword(raw: string): SearchKeyword | null {
  const text = raw.trim();
  const words = text
    .split(/\s+/)
    .map((word) => ({ word, tokens: tokensOf(word).length }))
    .filter(({ tokens }) => tokens > 0);
  if (words.length === 0) return null;
  const parts = words.map(({ word }) => quote(searchableText(word).trim()));
  return {
    text,
    words: parts.length === 1 ? parts[0]! : `(${parts.join(' AND ')})`,
    tokens: words.reduce((sum, { tokens }) => sum + tokens, 0),
  };
}

/**
 * Any of the keywords in the name or the video titles. Never the `meta` column: it holds the
 * index's own tokens (a name's length), which a user's word must not find.
 */
export function anyKeywordQuery(keywords: readonly SearchKeyword[]): string {
  return `{title videos} : (${keywords.map((keyword) => keyword.words).join(' OR ')})`;
}

/** The keyword in the name only. */
export function inNameQuery(keyword: SearchKeyword): string {
  return `title : (${keyword.words})`;
}

/** The keyword matched, but not all of it in the name (so in the video titles). */
export function notInNameQuery(keyword: SearchKeyword): string {
  return `${anyKeywordQuery([keyword])} NOT ${inNameQuery(keyword)}`;
}

/** The `meta` token saying a name has this many words (see generate.ts). */
export const nameLengthToken = (tokens: number) => `namelen${tokens}`;

/** The keyword in names of exactly these lengths (in words). */
export function inNameOfLengthQuery(keyword: SearchKeyword, lengths: readonly number[]): string {
  return `${inNameQuery(keyword)} AND meta : (${lengths.map(nameLengthToken).join(' OR ')})`;
}
