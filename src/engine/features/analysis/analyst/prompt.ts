/**
 * What a prompt asks for, read the way a person would skim it: which aspects of the video (in the
 * order the prompt names them), whether the answer must be JSON (and with which keys), how many
 * items a list should have, and how long the answer should be.
 */
export type Aspect = 'summary' | 'moments' | 'transcript' | 'hook' | 'topics' | 'performance' | 'audience' | 'tone' | 'visual' | 'advice';

export interface PromptReading {
  /** Aspects asked for, in the order the prompt mentions them; empty when it names none. */
  aspects: Aspect[];
  /** The answer must be JSON (its keys and their shapes: answer-shape.ts). */
  json: boolean;
  /** "5 key moments", "three tips": how many items a list should have. */
  count?: number;
  /** "in one sentence" */
  sentences?: number;
  brevity: 'brief' | 'normal' | 'detailed';
  /** "the first 30 seconds" */
  firstSeconds?: number;
  /** "shots in 4:00–8:00", "between 1:30 and 2:45": the part of the video asked about, in seconds. */
  window?: { start: number; end: number };
}

const ASPECT_PATTERNS: ReadonlyArray<[Aspect, RegExp]> = [
  ['summary', /\b(summar\w*|tl;?dr|overview|recap|gist|synopsis|what(?:'s| is) (?:this|the) video about|(?:describe|explain) (?:this|the) video)/],
  ['moments', /\b(timestamps?|time ?codes?|chapters?|key moments?|timeline|highlights?|minute[- ]by[- ]minute|moments?)\b/],
  ['transcript', /\b(transcri\w*|verbatim|captions?|subtitles?|what (?:is|was) said|quotes?)\b/],
  ['hook', /\b(hooks?|intro\w*|opening|first (?:\d+|few) seconds?|beginning|start of the video)\b/],
  ['topics', /\b(topics?|keywords?|tags?|hashtags?|themes?|subjects?|seo)\b/],
  ['performance', /\b(views?|engagement|performance|statistics|stats|likes?|comments?|metrics?|how (?:well|popular)|viral\w*)\b/],
  ['audience', /\b(audiences?|viewers?|target\w*|demographics?|who (?:is|would) (?:this|it) (?:be )?for|niche)\b/],
  ['tone', /\b(sentiment|tone|mood|emotions?|vibe)\b/],
  ['visual', /\b(thumbnails?|visuals?|scenes?|on[- ]screen|frames?|colou?rs?|camera|shots?|b-roll|editing|lighting|faces?|overlays?)\b/],
  ['advice', /\b(improve\w*|suggest\w*|tips?|advice|feedback|critique|recommend\w*|weakness\w*|strengths?|title ideas?|alternative titles?)\b/],
];

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const LIST_NOUNS =
  'points?|bullets?|bullet points|moments?|takeaways?|ideas?|tips?|topics?|keywords?|tags?|chapters?|timestamps?|things|reasons?|suggestions?|hashtags?|highlights?|lines?|segments?|shots?|scenes?|clips?|cuts?';
const COUNT = new RegExp(`\\b(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})\\s+(?:[a-z-]+\\s+){0,2}?(?:${LIST_NOUNS})\\b`);
const SENTENCES = new RegExp(`\\b(?:in|with|using)\\s+(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')}|a single)\\s+sentences?\\b`);

const toNumber = (word: string) => (word === 'a single' ? 1 : (NUMBER_WORDS[word] ?? Number(word)));

export function readPrompt(prompt: string): PromptReading {
  const text = prompt.toLowerCase();
  const aspects = ASPECT_PATTERNS.map(([aspect, pattern]) => ({ aspect, at: text.search(pattern) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ aspect }) => aspect);
  const json = /\bjson\b/.test(text);
  const count = COUNT.exec(text);
  const sentences = SENTENCES.exec(text);
  const seconds = /\bfirst (\d{1,3}) seconds?\b/.exec(text);
  return {
    aspects,
    json,
    count: count ? clampCount(toNumber(count[1]!)) : undefined,
    sentences: sentences ? clampCount(toNumber(sentences[1]!)) : undefined,
    brevity: /\b(brief\w*|short(?:ly)?|concise\w*|one[- ]liner|quick\w*|in a nutshell)\b/.test(text)
      ? 'brief'
      : /\b(detail\w*|in[- ]depth|thorough\w*|comprehensive|exhaustive)\b/.test(text)
        ? 'detailed'
        : 'normal',
    firstSeconds: seconds ? Math.max(1, Number(seconds[1])) : undefined,
    window: timeWindow(text),
  };
}

/** A time as people write it: `m:ss`, `h:mm:ss`, `mm:ss.s`. */
const TIME = String.raw`(\d{1,2}(?::\d{2}){1,2}(?:\.\d+)?)`;
const WINDOW = new RegExp(String.raw`(?:\bfrom\s+|\bbetween\s+)?${TIME}\s*(?:[-–—]|\bto\b|\band\b|\buntil\b|\.\.)\s*${TIME}`);

const secondsOf = (time: string) => time.split(':').reduce((total, part) => total * 60 + Number(part), 0);

/** The first time range the prompt names, when it is a range (its end after its start). */
function timeWindow(text: string): { start: number; end: number } | undefined {
  const match = WINDOW.exec(text);
  if (!match) return undefined;
  const [start, end] = [secondsOf(match[1]!), secondsOf(match[2]!)];
  return end > start ? { start, end } : undefined;
}

const clampCount = (n: number) => Math.min(20, Math.max(1, Math.round(n)));
