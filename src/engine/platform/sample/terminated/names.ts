/**
 * Names of terminated channels and titles of their top videos, from the world's vocabulary
 * (words.ts): topics, brands, adjectives, given names in every language (accents and native
 * scripts included) and each category's video subjects — so the keywords a person would type
 * ("cooking", "gaming", "lofi", a name) find channels.
 */
import { Rng, Weighted } from '../prng.js';
import { ADJECTIVES, CATEGORIES, LANGUAGES, SURNAMES, TITLE_ADJECTIVES, type CategoryDef, type ContentType, type LanguageDef } from '../words.js';

export const TERMINATED_LANGUAGES = new Weighted<LanguageDef>(LANGUAGES.map((language) => [language, language.weight] as const));

export interface TerminatedCategory {
  def: CategoryDef;
  contentTypes: Weighted<ContentType>;
}

export const TERMINATED_CATEGORIES = new Weighted<TerminatedCategory>(
  CATEGORIES.map((def) => [{ def, contentTypes: new Weighted(def.contentTypes) }, def.weight] as const),
);

/** Words terminated channels often put in their names (re-uploads, compilations, fan pages). */
const CHANNEL_SUFFIXES = ['Clips', 'Compilations', 'Daily', 'Highlights', 'Fan Channel', 'HD', 'Official', 'Zone', 'Hub', 'Central'];
const TITLE_NUMBERS = ['3', '5', '7', '10', '12', '24', '30', '50', '100'];

type NameStyle = 'adjTopic' | 'adjTopicWithName' | 'nameBrand' | 'thingSuffix' | 'topicSuffix' | 'fullName';
const NAME_STYLES = new Weighted<NameStyle>([
  ['adjTopic', 3],
  ['adjTopicWithName', 2],
  ['nameBrand', 3],
  ['thingSuffix', 2],
  ['topicSuffix', 2],
  ['fullName', 1],
]);

/** Templates split once into literal text and `{name}` slots: a million names fill fast. */
const compiled = new Map<string, string[]>();

function fill(template: string, values: Record<string, string>): string {
  let parts = compiled.get(template);
  if (!parts) {
    // Odd positions are slot names.
    parts = template.split(/\{(\w+)\}/);
    compiled.set(template, parts);
  }
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) text += (values[parts[i]!] ?? `{${parts[i]}}`) + parts[i + 1]!;
  return text;
}

/** The channel's name at termination. Non-Latin languages often keep their own script. */
export function terminatedChannelName(rng: Rng, language: LanguageDef, category: CategoryDef): string {
  const [display, ascii] = rng.pick(language.names);
  if (language.nativeSuffixes && rng.chance(language.nativeShare ?? 0)) {
    return display + rng.pick(language.nativeSuffixes)[0];
  }
  const name = language.nativeSuffixes ? ascii.charAt(0).toUpperCase() + ascii.slice(1) : display;
  const topic = rng.pick(category.topics);
  switch (NAME_STYLES.pick(rng)) {
    case 'adjTopic':
      return `${rng.pick(ADJECTIVES)} ${topic}`;
    case 'adjTopicWithName':
      return `${rng.pick(ADJECTIVES)} ${topic} ${language.withWord ?? 'with'} ${name}`;
    case 'nameBrand':
      return `${name} ${rng.pick(category.brands)}`;
    case 'thingSuffix':
      return `${fill(rng.pick(category.things), { n: rng.pick(TITLE_NUMBERS) })} ${rng.pick(CHANNEL_SUFFIXES)}`;
    case 'topicSuffix':
      return `${topic} ${rng.pick(CHANNEL_SUFFIXES)}`;
    case 'fullName':
    default:
      return `${name} ${rng.pick(SURNAMES)}`;
  }
}

/** A video title in the channel's language (70 % where the language has templates) or English. */
export function terminatedVideoTitle(rng: Rng, language: LanguageDef, category: CategoryDef, short: boolean, year: number): string {
  const values = { thing: '', n: rng.pick(TITLE_NUMBERS), year: String(year), adj: rng.pick(TITLE_ADJECTIVES) };
  values.thing = fill(rng.pick(category.things), values);
  if (language.videoTitles && rng.chance(0.7)) return fill(rng.pick(language.videoTitles), values) + (short ? ' #shorts' : '');
  return fill(rng.pick(short ? category.shortTitles : category.videoTitles), values);
}
