/**
 * Types for `@echogarden/espeak-ng-emscripten` (0.3.x), which ships none.
 *
 * The package's default export is an Emscripten module factory. Awaiting it
 * loads `espeak-ng.data` (24 MB, the full espeak-ng-data tree) into an
 * in-memory FS under /usr/share/espeak-ng-data and resolves to the module,
 * whose `eSpeakNGWorker` class is a WebIDL binding over Echogarden's
 * eSpeak NG fork. Only the members this project relies on are declared.
 */
declare module '@echogarden/espeak-ng-emscripten' {
  export type EspeakEventType =
    | 'list_terminated' | 'word' | 'sentence' | 'mark' | 'play' | 'end'
    | 'msg_terminated' | 'phoneme' | 'samplerate';

  export interface EspeakEvent {
    type: EspeakEventType;
    /** 1-based position in the input, counted in Unicode code points. */
    text_position: number;
    /** For `word` events: length of the word in code points. */
    word_length: number;
    /** Milliseconds from the start of this synthesis call. */
    audio_position: number;
    /** Word/sentence number, or the phoneme/mark name ('' for pauses). */
    id?: string | number;
  }

  export interface EspeakVoiceListing {
    identifier: string;
    name: string;
    languages: Array<{ priority: number; name: string }>;
  }

  export interface ESpeakNGWorker {
    /**
     * Synthesizes synchronously; `callback` is called for each audio chunk
     * (a copy of the 16-bit mono PCM, 22050 Hz) with the events inside it.
     * The input is parsed as SSML and `[[...]]` as phoneme input.
     */
    synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => boolean | void): void;
    /** espeak_SetVoiceByName: 0 on success (an unknown "+variant" is silently ignored). */
    set_voice(name: string): number;
    list_voices(): EspeakVoiceListing[];
    get_samplerate(): number;
    get_rate(): number;
    set_rate(wordsPerMinute: number): void;
    get_pitch(): number;
    set_pitch(pitch: number): void;
    get_range(): number;
    set_range(range: number): void;
    get_volume(): number;
    set_volume(volume: number): void;
  }

  export interface EspeakFS {
    readdir(path: string): string[];
    readFile(path: string, opts: { encoding: 'utf8' }): string;
  }

  export interface EspeakModule {
    eSpeakNGWorker: new () => ESpeakNGWorker;
    FS: EspeakFS;
  }

  const createEspeakModule: (moduleArg?: Record<string, unknown>) => Promise<EspeakModule>;
  export default createEspeakModule;
}
