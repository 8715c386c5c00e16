/**
 * Titles as PostgreSQL `tsvector`s and keywords as `tsquery`s that match exactly what the SQLite
 * store's FTS5 index matches (search-text.ts): the same tokens (tokensOf: runs of letters, digits
 * and marks, unspaced scripts cut into characters), folded as FTS5's `unicode61
 * remove_diacritics 2` folds them (case, and accents on Latin letters), and the same query shape
 * — a keyword's words AND-ed, each word the phrase of its tokens, no prefixes. Postgres's own
 * parsers and dictionaries are not used: they would cut and stem words differently.
 *
 * A channel's document holds its name's tokens with weight A, then its top videos' titles with
 * weight B (one run, as FTS5's `videos` column is one text), two positions apart so no phrase
 * spans from the name into a video title. "In the name" is a query on weight A.
 */
import type { SearchKeyword } from '../search-text.js';
import { tokensOf } from '../search-text.js';

const LATIN_DIACRITICS = /(\p{Script=Latin})[\u0300-\u036f]+/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** A token as the index keeps it: lower case, Latin letters without their accents. */
export function foldToken(token: string): string {
  const lower = token.toLowerCase();
  if (ASCII.test(lower)) return lower;
  return lower.normalize('NFD').replace(LATIN_DIACRITICS, '$1').normalize('NFC');
}

const lexeme = (token: string) => `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** The `tsvector` text of a channel: its name (weight A) and its top videos' titles (weight B). */
export function documentOf(title: string, videoTitles: readonly string[]): string {
  const positions = new Map<string, string[]>();
  let at = 0;
  const add = (text: string, weight: 'A' | 'B') => {
    for (const token of tokensOf(text)) {
      at += 1;
      const folded = foldToken(token);
      const list = positions.get(folded);
      const position = `${Math.min(at, 16_383)}${weight}`;
      if (list) list.push(position);
      else positions.set(folded, [position]);
    }
  };
  add(title, 'A');
  at += 1; // a gap: the name's last word and the first video title's first are not a phrase
  add(videoTitles.join('\n'), 'B');
  return [...positions].map(([token, list]) => `${lexeme(token)}:${list.join(',')}`).join(' ');
}

/** The words of a keyword as parseKeyword cut them: each the tokens of a phrase. */
function wordsOf(keyword: SearchKeyword): string[][] {
  return keyword.text
    .split(/\s+/)
    .map((word) => tokensOf(word).map(foldToken))
    .filter((tokens) => tokens.length > 0);
}

/** A keyword as a `tsquery`: every word (a phrase of its tokens) anywhere, or only in the name. */
function keywordQuery(keyword: SearchKeyword, inName: boolean): string {
  const weight = inName ? ':A' : '';
  const words = wordsOf(keyword).map((tokens) => {
    const phrase = tokens.map((token) => `${lexeme(token)}${weight}`).join(' <-> ');
    return tokens.length > 1 ? `(${phrase})` : phrase;
  });
  return `(${words.join(' & ')})`;
}

/** Any of the keywords, in the name or the video titles. */
export const anyKeywordTsquery = (keywords: readonly SearchKeyword[]) => keywords.map((keyword) => keywordQuery(keyword, false)).join(' | ');

/** The keyword in the name. */
export const inNameTsquery = (keyword: SearchKeyword) => keywordQuery(keyword, true);

/** The keyword matched, but not all of it in the name. */
export const notInNameTsquery = (keyword: SearchKeyword) => `${keywordQuery(keyword, false)} & !${keywordQuery(keyword, true)}`;

/** The words of a search whose every keyword is one plain word (no phrase, no second word), as the index keeps them; else null. */
export function plainWords(keywords: readonly SearchKeyword[]): string[] | null {
  const found: string[] = [];
  for (const keyword of keywords) {
    const words = wordsOf(keyword);
    if (words.length !== 1 || words[0]!.length !== 1) return null;
    found.push(words[0]![0]!);
  }
  return found.length > 0 ? [...new Set(found)] : null;
}

/** Any of these words (as the index keeps them), anywhere. */
export const anyWordTsquery = (words: readonly string[]) => words.map(lexeme).join(' | ');
