/**
 * The eSpeak NG voice that speaks each of the alt provider's 36 languages.
 * Every name below exists in the wasm build except Tagalog, which eSpeak NG lacks:
 * it is read with Indonesian, a close Austronesian relative with the same plain Latin spelling.
 */
import type { AltLanguage } from '../../../core/schemas/voices.js';

export const ALT_LANGUAGE_VOICES: Readonly<Record<AltLanguage, string>> = {
  English: 'en-us',
  Chinese: 'cmn',
  Spanish: 'es',
  French: 'fr',
  German: 'de',
  Italian: 'it',
  Portuguese: 'pt-br',
  Polish: 'pl',
  Russian: 'ru',
  Ukrainian: 'uk',
  Czech: 'cs',
  Slovak: 'sk',
  Croatian: 'hr',
  Serbian: 'sr',
  Bulgarian: 'bg',
  Dutch: 'nl',
  Romanian: 'ro',
  Swedish: 'sv',
  Norwegian: 'nb',
  Afrikaans: 'af',
  Catalan: 'ca',
  Greek: 'el',
  Lithuanian: 'lt',
  Latvian: 'lv',
  Vietnamese: 'vi',
  Indonesian: 'id',
  Malay: 'ms',
  Tagalog: 'id',
  Swahili: 'sw',
  Hindi: 'hi',
  Japanese: 'ja',
  Korean: 'ko',
  Danish: 'da',
  Finnish: 'fi',
  Hungarian: 'hu',
  Slovenian: 'sl',
};
