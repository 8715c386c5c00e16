/**
 * The `languages` filter takes language codes (`en`, `pt`, `fil`) or English names (`Portuguese`),
 * case-insensitively; channels carry the code of their detected language.
 */
import { badRequest } from '../../../core/errors.js';

const CODES_BY_NAME: Readonly<Record<string, string>> = {
  arabic: 'ar', bengali: 'bn', bulgarian: 'bg', catalan: 'ca', chinese: 'zh', croatian: 'hr', czech: 'cs',
  danish: 'da', dutch: 'nl', english: 'en', filipino: 'fil', finnish: 'fi', french: 'fr', german: 'de',
  greek: 'el', hebrew: 'he', hindi: 'hi', hungarian: 'hu', indonesian: 'id', italian: 'it', japanese: 'ja',
  korean: 'ko', malay: 'ms', norwegian: 'no', persian: 'fa', polish: 'pl', portuguese: 'pt', romanian: 'ro',
  russian: 'ru', serbian: 'sr', slovak: 'sk', spanish: 'es', swahili: 'sw', swedish: 'sv', tagalog: 'fil',
  thai: 'th', turkish: 'tr', ukrainian: 'uk', urdu: 'ur', vietnamese: 'vi',
};

const CODE = /^[a-z]{2,3}$/;

/** Language codes for the filter, or a 400 naming the value that is neither a code nor a known name. */
export function languageCodes(values: readonly string[]): string[] {
  const codes = values.map((value) => {
    const word = value.trim().toLowerCase();
    const code = CODES_BY_NAME[word] ?? (CODE.test(word) ? word : undefined);
    if (!code) {
      throw badRequest(
        `Invalid request: languages: "${value}" is not a language; give codes such as en, es, pt or names such as English, Spanish.`,
      );
    }
    return code;
  });
  return [...new Set(codes)];
}
