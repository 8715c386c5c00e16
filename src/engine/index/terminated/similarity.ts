/**
 * `similarity_score`, 0–100: how well a channel's name matches the keywords searched for.
 *
 * Each keyword scores 70 when the channel's name contains all its words, plus up to 30 for how
 * much of the name it makes up (a name that is exactly the keyword scores 100); 40 when its words
 * are only in the titles of the channel's top videos; 0 when the channel does not match it. The
 * score is the average over the keywords, so a channel matching one of two keywords scores at
 * most 50. One definition, used by SQL (to sort every match) and by code (for a page of results).
 */
export const NAME_POINTS = 70;
export const NAME_SHARE_POINTS = 30;
export const VIDEO_POINTS = 40;

export interface KeywordMatch {
  inName: boolean;
  inVideos: boolean;
  /** Words (tokens) of the keyword and of the channel's name. */
  keywordTokens: number;
  nameTokens: number;
}

export function keywordPoints(match: KeywordMatch): number {
  if (match.inName) return NAME_POINTS + NAME_SHARE_POINTS * Math.min(1, match.keywordTokens / Math.max(1, match.nameTokens));
  return match.inVideos ? VIDEO_POINTS : 0;
}

export function similarityScore(matches: readonly KeywordMatch[]): number {
  if (matches.length === 0) return 0;
  return Math.round(matches.reduce((sum, match) => sum + keywordPoints(match), 0) / matches.length);
}

/**
 * The same score as an SQL expression over facts row `f`: `inName(k)` and `inAny(k)` are SQL
 * conditions saying whether the row matches keyword k in the name or anywhere.
 */
export function similaritySql(
  keywordTokens: readonly number[],
  inName: (k: number) => string,
  inAny: (k: number) => string,
): string {
  const terms = keywordTokens.map((tokens, k) => {
    const share = `MIN(1.0, ${tokens}.0 / MAX(1, f.title_tokens))`;
    // With one keyword every match has it somewhere, so no second test is needed.
    const elsewhere = keywordTokens.length === 1 ? `${VIDEO_POINTS}` : `CASE WHEN ${inAny(k)} THEN ${VIDEO_POINTS} ELSE 0 END`;
    return `(CASE WHEN ${inName(k)} THEN ${NAME_POINTS} + ${NAME_SHARE_POINTS} * ${share} ELSE ${elsewhere} END)`;
  });
  return `((${terms.join(' + ')}) / ${keywordTokens.length}.0)`;
}
