/**
 * Splitting a long script into requests a provider accepts: whole sentences packed up to the
 * limit, a sentence longer than the limit cut at its last space before it. Joined back, the
 * chunks are the script (no character lost or added), so the timings of each cover its text.
 */

const SENTENCE = /[^.!?…。！？]*(?:[.!?…。！？]+["'”’)\]]*|$)\s*/gu;

export function splitSentences(text: string): string[] {
  return (text.match(SENTENCE) ?? []).filter((sentence) => sentence.length > 0);
}

/** Chunks of at most `maxCharacters` code points each; their concatenation is `text`. */
export function chunkScript(text: string, maxCharacters: number): string[] {
  const chunks: string[] = [];
  let current = '';
  const push = () => {
    if (current) chunks.push(current);
    current = '';
  };
  for (let sentence of splitSentences(text)) {
    if (length(current) + length(sentence) <= maxCharacters) {
      current += sentence;
      continue;
    }
    push();
    while (length(sentence) > maxCharacters) {
      const head = [...sentence].slice(0, maxCharacters).join('');
      const space = head.search(/\s\S*$/u);
      const cut = space > 0 ? space + 1 : head.length;
      chunks.push(sentence.slice(0, cut));
      sentence = sentence.slice(cut);
    }
    current = sentence;
  }
  push();
  return chunks;
}

const length = (text: string) => [...text].length;
