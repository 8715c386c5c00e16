/** Offline speech engine: eSpeak NG synthesis, MP3/SRT output, built-in voices, sample analysis. */
export {
  EspeakSynthesizer,
  getSynthesizer,
  synthesize,
  UnknownVoiceError,
  ESPEAK_SAMPLE_RATE,
  DEFAULT_RATE_WPM,
  MIN_RATE_WPM,
  MAX_RATE_WPM,
  DEFAULT_PITCH,
  DEFAULT_PITCH_RANGE,
  DEFAULT_VOLUME,
  type SynthesisOptions,
  type SynthesisResult,
  type WordTiming,
} from './synthesizer.js';
export { encodeMp3, type Mp3Options } from './mp3.js';
export { wordsToSrt, formatSrtTimestamp, type TimedWord } from './srt.js';
export { encodeWav, parseWav, WavFormatError, type DecodedWav } from './wav.js';
export {
  SPEECH_LANG_CODES,
  LANG_CODE_TO_ESPEAK,
  builtinVoices,
  findBuiltinVoice,
  closestBuiltinVoice,
  toPublicVoice,
  normalizeLangCode,
  espeakVoiceForLangCode,
  type SpeechLangCode,
  type BuiltinVoice,
  type PublicBuiltinVoice,
  type VoiceGender,
} from './catalog.js';
export {
  inspectAudioSample,
  ffmpegDuration,
  AudioSampleError,
  ACCEPTED_SAMPLE_FORMATS,
  type AudioSampleInfo,
  type AudioSampleErrorReason,
  type SampleFormat,
  type DurationFallback,
} from './sample-audio.js';
export { decodeToPcm, ffmpegAvailable, AudioDecodeError, FFMPEG_DECODE_RATE, type DecodedPcm } from './decode.js';
export { measurePitchHz, type PitchOptions } from './pitch.js';
export { fitSpeakingRate } from './pace.js';
export {
  deriveVoiceProfile,
  espeakPitchForHz,
  hzForEspeakPitch,
  speechSpanSeconds,
  FEMALE_PITCH_THRESHOLD_HZ,
  type VoiceProfile,
  type VoiceProfileInput,
} from './voice-profile.js';
