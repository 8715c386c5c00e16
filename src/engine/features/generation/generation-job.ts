/**
 * The `generation` job: a worker synthesizes the script with the shared synthesizer (one
 * initialized eSpeak instance per worker process), stores MP3 and SRT permanently, and the
 * job-status body then carries their URLs.
 */
import type { Provider } from '../../../core/schemas/voices.js';
import { hasFault } from '../../faults.js';
import { registerJobProcessor } from '../../jobs/registry.js';
import { getSynthesizer, type SynthesisOptions } from '../../speech/index.js';
import { audioFilesFor, storeAudioFiles } from './audio-files.js';
import { publicFileUrl } from '../public-url.js';
import { renderSpeech } from './render.js';

export const GENERATION_KIND = 'generation';

/** What the submit stores: the voice is resolved then, so a later clone deletion cannot break the job. */
export interface GenerationInput {
  script: string;
  title: string;
  provider: Provider;
  voice_id: string;
  speech: SynthesisOptions;
}

export interface GenerationOutput {
  audio_path: string;
  transcript_path: string;
  audio_duration_seconds: number;
}

registerJobProcessor<GenerationInput, GenerationOutput>({
  kind: GENERATION_KIND,
  family: 'task',
  async process(job, { engine, signal }) {
    if (hasFault(engine.settings, 'speech-synthesis')) throw new Error('Speech synthesis failed (injected fault "speech-synthesis").');
    const synthesizer = await getSynthesizer();
    const rendered = await renderSpeech(synthesizer, job.input.script, job.input.speech, signal);
    const files = audioFilesFor(job.publicId!, job.requestedAt);
    storeAudioFiles(engine.filesDir, files, rendered.mp3, rendered.srt, engine.settings);
    return {
      audio_path: files.audio,
      transcript_path: files.transcript,
      audio_duration_seconds: Math.round(rendered.durationSeconds * 100) / 100,
    };
  },
  describe(job, request) {
    const fields: Record<string, unknown> = { title: job.input.title, provider: job.input.provider, voice_id: job.input.voice_id };
    if (job.output) {
      fields.audio_url = publicFileUrl(request, job.output.audio_path);
      fields.transcript_url = publicFileUrl(request, job.output.transcript_path);
      fields.audio_duration_seconds = job.output.audio_duration_seconds;
    }
    return fields;
  },
});
