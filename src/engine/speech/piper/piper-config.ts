/**
 * A Piper voice's `.onnx.json`: what tubekit needs from it (sample rate, eSpeak voice, language,
 * speakers, the phoneme id map), checked, with the sentence a bad file gets.
 */

export interface PiperConfig {
  sampleRate: number;
  espeakVoice: string;
  /** The language code as Piper writes it ("en_US"). */
  languageCode: string;
  languageName: string;
  speakers: number;
  phonemeIds: Record<string, number[]>;
  /** The licence the config names, when it names one. */
  license: string | null;
}

export class PiperConfigError extends Error {
  override readonly name = 'PiperConfigError';
}

export function parsePiperConfig(text: string, file: string): PiperConfig {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new PiperConfigError(`${file} is not JSON: a Piper voice's config is the .onnx.json published beside its .onnx model.`);
  }
  const audio = raw.audio as { sample_rate?: unknown } | undefined;
  const espeak = raw.espeak as { voice?: unknown } | undefined;
  const language = raw.language as { code?: unknown; name_english?: unknown } | undefined;
  const map = raw.phoneme_id_map as Record<string, unknown> | undefined;
  const missing = (what: string) => new PiperConfigError(`${file} has no ${what}: it is not a Piper voice config.`);
  if (typeof audio?.sample_rate !== 'number' || !(audio.sample_rate > 0)) throw missing('audio.sample_rate');
  if (typeof espeak?.voice !== 'string' || !espeak.voice) throw missing('espeak.voice');
  if (!map || typeof map !== 'object' || Object.keys(map).length === 0) throw missing('phoneme_id_map');
  for (const [symbol, ids] of Object.entries(map)) {
    if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) throw new PiperConfigError(`${file}: phoneme_id_map["${symbol}"] is not a list of ids.`);
  }
  const code = typeof language?.code === 'string' ? language.code : espeak.voice;
  return {
    sampleRate: audio.sample_rate,
    espeakVoice: espeak.voice,
    languageCode: code,
    languageName: typeof language?.name_english === 'string' ? language.name_english : code,
    speakers: typeof raw.num_speakers === 'number' && raw.num_speakers > 0 ? raw.num_speakers : 1,
    phonemeIds: map as Record<string, number[]>,
    license: typeof raw.license === 'string' ? raw.license : null,
  };
}

/** sherpa-onnx's tokens file: one `symbol id` line each. */
export function tokensFile(config: PiperConfig): string {
  return Object.entries(config.phonemeIds)
    .map(([symbol, ids]) => `${symbol} ${ids[0]}`)
    .join('\n')
    .concat('\n');
}
