/**
 * Voices beyond eSpeak: the ElevenLabs path's own overhead (a 5,000-character script through the
 * fixture provider, which answers at once: tubekit's time beyond the provider's, beside the stealth
 * pipeline's time for the same script) and how close its SRT cues are to the provider's alignment;
 * the Piper path's synthesis speed with the test's fixture model beside eSpeak's (the runtime's
 * overhead, not voice quality) and the memory one loaded voice takes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../src/engine/engine.js';
import { renderSpeech } from '../src/engine/features/generation/render.js';
import { LocalService } from '../src/engine/local-service.js';
import { getSynthesizer } from '../src/engine/speech/index.js';
import { speakWithPiper } from '../src/engine/speech/piper/piper-synth.js';
import { installPiperVoice } from '../src/engine/speech/piper/piper-voices.js';
import { startElevenLabsFixture, PREMADE_VOICES } from '../test/support/elevenlabs-fixture-server.js';
import { canMakePiperVoice, makePiperVoice } from '../test/support/piper/piper-voice.js';
import { median, timeMedian, type BenchRow } from './table.js';

const PARAGRAPH =
  'Every channel starts with a single upload. The first videos are rough, the sound is uneven, and nobody is watching yet. ' +
  'Then one idea lands, the audience grows, and the work changes shape: scripts get tighter, edits get faster, and the voice becomes recognisable. ';
const prose = (length: number) => PARAGRAPH.repeat(Math.ceil(length / PARAGRAPH.length)).slice(0, length);

const seconds = (stamp: string) => {
  const [h, m, s] = stamp.replace(',', '.').split(':').map(Number);
  return h! * 3600 + m! * 60 + s!;
};

export async function voiceRows(): Promise<BenchRow[]> {
  return [...(await elevenLabsRows()), ...(await piperRows())];
}

async function elevenLabsRows(): Promise<BenchRow[]> {
  const fixture = await startElevenLabsFixture({ msPerCharacter: 20, audioSeconds: 110 });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-voices-'));
  const env = { TUBEKIT_ELEVENLABS_API_KEY: fixture.key, TUBEKIT_ELEVENLABS_BASE_URL: fixture.baseUrl };
  const engine = Engine.open({ dataDir, speechSettings: { env }, planOverrides: { ultimate: { generatePerMinute: 1000 } } });
  const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
  const script = prose(5000);
  const voice = PREMADE_VOICES[0]!.voice_id;
  try {
    const generate = async () => {
      const { job_id } = await service.call('generate', { script, voice_id: voice, provider: 'elevenlabs', generate_srt: true });
      const job = await service.call('jobs.status', { job_id, wait_seconds: 30 });
      if (job.status !== 'completed') throw new Error(`generation ended ${job.status}: ${job.error}`);
      return job;
    };
    await generate(); // warm-up: the catalog is read once
    const overhead: number[] = [];
    let last;
    for (let run = 0; run < 5; run += 1) {
      fixture.speechMs = 0;
      const started = performance.now();
      last = await generate();
      overhead.push(performance.now() - started - fixture.speechMs);
    }
    const synthesizer = await getSynthesizer();
    const stealth = await timeMedian(3, () => renderSpeech(synthesizer, script, { voice: 'en-us' }));

    // Each cue against the alignment the fixture sent for its word.
    const srt = fs.readFileSync(path.join(dataDir, 'cdn', new URL(last!.transcript_url!).pathname.split('/cdn/')[1]!), 'utf8');
    const spoken = fixture.speeches.at(-1)!;
    let at = 0;
    let worst = 0;
    const cues = srt.trim().split('\n\n').map((cue) => cue.split('\n')[1]!.split(' --> ').map(seconds));
    let cue = 0;
    for (const token of spoken.text.split(' ')) {
      if (token) {
        const [start, end] = cues[cue++]!;
        worst = Math.max(worst, Math.abs(start! - spoken.starts[at]!) * 1000, Math.abs(end! - spoken.ends[at + [...token].length - 1]!) * 1000);
      }
      at += [...token].length + 1;
    }
    return [
      {
        name: 'voices: ElevenLabs path, 5,000 characters, tubekit\'s time beyond the provider\'s',
        value: median(overhead),
        unit: 'ms',
        baseline: { name: 'stealth pipeline, same script', value: stealth },
        budget: '≤ 0.25×',
      },
      { name: 'voices: ElevenLabs SRT cues, worst distance from the alignment', value: worst, unit: 'ms', budget: '≤ 50 ms' },
    ];
  } finally {
    await service.close();
    await engine.close();
    await fixture.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function piperRows(): Promise<BenchRow[]> {
  if (!canMakePiperVoice()) return [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-piper-'));
  try {
    const model = makePiperVoice(dir);
    const voice = installPiperVoice(dir, 'bench', fs.readFileSync(model), fs.readFileSync(`${model}.json`, 'utf8'), `${model}.json`);
    const text = prose(1000);
    const before = process.memoryUsage().rss;
    await speakWithPiper(voice, 'Warm up.', 1); // loads the runtime and the voice
    const loaded = process.memoryUsage().rss - before;
    const piperSpeed: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      const spoken = await speakWithPiper(voice, text, 1);
      piperSpeed.push(spoken.durationSeconds / ((performance.now() - started) / 1000));
    }
    const synthesizer = await getSynthesizer();
    const espeakSpeed: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const started = performance.now();
      const rendered = await renderSpeech(synthesizer, text, { voice: 'en-us' });
      espeakSpeed.push(rendered.durationSeconds / ((performance.now() - started) / 1000));
    }
    return [
      {
        name: 'voices: Piper (fixture model) synthesis + MP3, 1,000 characters',
        value: median(piperSpeed),
        unit: 's audio/s',
        baseline: { name: 'eSpeak synthesis + MP3 + SRT', value: median(espeakSpeed) },
      },
      { name: 'voices: memory of the sherpa-onnx runtime and one loaded (fixture) voice', value: Math.round(loaded / 1e5) / 10, unit: 'MB' },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
