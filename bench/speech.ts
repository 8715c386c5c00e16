/**
 * Speech: how fast the offline pipeline turns text into audio, and how long a generation takes
 * from submit to a completed job on the embedded engine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../src/engine/engine.js';
import { renderSpeech } from '../src/engine/features/generation/render.js';
import { LocalService } from '../src/engine/local-service.js';
import { EspeakSynthesizer, getSynthesizer } from '../src/engine/speech/index.js';
import { median, timeMedian, type BenchRow } from './table.js';

const PARAGRAPH =
  'Every channel starts with a single upload. The first videos are rough, the sound is uneven, and nobody is watching yet. ' +
  'Then one idea lands, the audience grows, and the work changes shape: scripts get tighter, edits get faster, and the voice becomes recognisable. ';

/** Exactly `length` characters of ordinary prose. */
function prose(length: number): string {
  return PARAGRAPH.repeat(Math.ceil(length / PARAGRAPH.length)).slice(0, length);
}

export async function speechRows(): Promise<BenchRow[]> {
  const init = await timeMedian(3, () => EspeakSynthesizer.create());
  const synthesizer = await getSynthesizer();
  const text = prose(1000);
  const settings = { voice: 'en-us' };
  await synthesizer.synthesize(text, settings); // warm-up

  const synthesisSpeed: number[] = [];
  const pipelineSpeed: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    let started = performance.now();
    const speech = await synthesizer.synthesize(text, settings);
    const audioSeconds = speech.samples.length / speech.sampleRate;
    synthesisSpeed.push(audioSeconds / ((performance.now() - started) / 1000));
    started = performance.now();
    await renderSpeech(synthesizer, text, settings);
    pipelineSpeed.push(audioSeconds / ((performance.now() - started) / 1000));
  }
  const realTime = { name: 'real time', value: 1 };
  return [
    { name: 'speech: synthesizer start (wasm + voice data)', value: init, unit: 'ms' },
    { name: 'speech: eSpeak synthesis, 1,000 characters', value: median(synthesisSpeed), unit: 's audio/s', baseline: realTime },
    { name: 'speech: synthesis + MP3 + SRT, 1,000 characters', value: median(pipelineSpeed), unit: 's audio/s', baseline: realTime, budget: '≥ 80×' },
    ...(await generateLatencyRows()),
  ];
}

/** Submit → `completed` on an in-process engine, against rendering the same script directly. */
async function generateLatencyRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-speech-'));
  const engine = Engine.open({ dataDir, planOverrides: { ultimate: { generatePerMinute: 1000 } } });
  const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
  const synthesizer = await getSynthesizer();
  try {
    const rows: BenchRow[] = [];
    for (const length of [100, 1000]) {
      const script = prose(length);
      const direct = await timeMedian(5, () => renderSpeech(synthesizer, script, { voice: 'en-us' }));
      const endToEnd = await timeMedian(5, async () => {
        const { job_id } = await service.call('generate', { script, voice_id: 'espeak-en-us' });
        const job = await service.call('jobs.status', { job_id, wait_seconds: 30 });
        if (job.status !== 'completed') throw new Error(`generation ended ${job.status}: ${job.error}`);
      });
      rows.push({
        name: `generate → completed (embedded), ${length.toLocaleString('en-US')} characters`,
        value: endToEnd,
        unit: 'ms',
        baseline: { name: 'rendering alone', value: direct },
      });
    }
    return rows;
  } finally {
    await service.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
