/**
 * The `generation` job: a worker has the job's provider speak the script (chosen from the
 * engine's configuration: speech/providers/registry.ts), stores MP3 and SRT permanently, and
 * the job-status body then carries their URLs and the characters each upstream call was sent.
 * A provider's failure fails the job with its reason; no file is kept.
 */
import type { Provider } from '../../../core/schemas/voices.js';
import { hasFault } from '../../faults.js';
import { registerJobProcessor } from '../../jobs/registry.js';
import { wordsToSrt, type SynthesisOptions } from '../../speech/index.js';
import { JobFailure } from '../../jobs/job-failure.js';
import { speechProvider } from '../../speech/providers/registry.js';
import { spentCharacters, type SpeechOrder } from '../../speech/providers/speech-provider.js';
import { audioFilesFor, storeAudioFiles } from './audio-files.js';
import { publicFileUrl } from '../public-url.js';

export const GENERATION_KIND = 'generation';

/** What the submit stores: the voice is resolved then, so a later clone deletion cannot break the job. */
export interface GenerationInput {
  script: string;
  title: string;
  provider: Provider;
  voice_id: string;
  /** eSpeak's settings (stealth, and the alt stand-in). */
  speech?: SynthesisOptions;
  upstream?: SpeechOrder['upstream'];
  piper?: SpeechOrder['piper'];
  /** False when the caller asked for no SRT (ElevenLabs' generate_srt); absent means true. */
  transcript?: boolean;
}

/** A failed job's output holds only the characters it spent (JobFailure). */
export interface GenerationOutput {
  audio_path: string;
  transcript_path?: string;
  audio_duration_seconds: number;
  upstream_characters?: number[];
}

registerJobProcessor<GenerationInput, GenerationOutput>({
  kind: GENERATION_KIND,
  family: 'task',
  async process(job, { engine, signal }) {
    if (hasFault(engine.settings, 'speech-synthesis')) throw new Error('Speech synthesis failed (injected fault "speech-synthesis").');
    const { script, speech, upstream, piper } = job.input;
    const spoken = await speechProvider(engine, job.input.provider)
      .speak({ script, speech, upstream, piper }, signal)
      .catch((error: unknown) => {
        // Parts the provider answered before the failure were spent: the failed job still shows them.
        const spent = spentCharacters(error);
        throw spent ? new JobFailure(error, { upstream_characters: spent }) : error;
      });
    const files = audioFilesFor(job.publicId!, job.requestedAt);
    const transcript = job.input.transcript !== false;
    storeAudioFiles(engine.filesDir, files, spoken.mp3, transcript ? wordsToSrt(spoken.words) : null, engine.settings);
    return {
      audio_path: files.audio,
      ...(transcript ? { transcript_path: files.transcript } : {}),
      audio_duration_seconds: Math.round(spoken.durationSeconds * 100) / 100,
      ...(spoken.upstreamCharacters.length > 0 ? { upstream_characters: spoken.upstreamCharacters } : {}),
    };
  },
  describe(job, request) {
    const fields: Record<string, unknown> = { title: job.input.title, provider: job.input.provider, voice_id: job.input.voice_id };
    if (job.output?.audio_path) {
      fields.audio_url = publicFileUrl(request, job.output.audio_path);
      if (job.output.transcript_path) fields.transcript_url = publicFileUrl(request, job.output.transcript_path);
      fields.audio_duration_seconds = job.output.audio_duration_seconds;
    }
    if (job.output?.upstream_characters) fields.upstream_characters = job.output.upstream_characters;
    return fields;
  },
});
