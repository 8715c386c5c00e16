/**
 * Speech with an installed Piper voice through sherpa-onnx, one sentence at a time: a sentence's
 * cue times are exact (where its samples begin and end); inside it, each word gets a share of the
 * sentence's time in proportion to its characters, which is what the README calls approximate.
 */
import { encodeMp3 } from '../mp3.js';
import { splitSentences } from '../sentence-chunks.js';
import type { TimedWord } from '../srt.js';
import type { SpokenScript } from '../providers/speech-provider.js';
import { espeakDataDir } from './espeak-data.js';
import type { PiperVoice } from './piper-voices.js';
import { sherpaRuntime, type SherpaTts } from './runtime.js';
import path from 'node:path';

const PIPER_MP3_KBPS = 64;
/** Loaded voices, by model directory: loading one reads the whole model. */
const loaded = new Map<string, SherpaTts>();

function loadVoice(voice: PiperVoice): SherpaTts {
  const key = `${voice.dir}:${voice.sha256}`;
  const known = loaded.get(key);
  if (known) return known;
  const sherpa = sherpaRuntime();
  const tts = new sherpa.OfflineTts({
    model: {
      vits: { model: path.join(voice.dir, 'model.onnx'), tokens: path.join(voice.dir, 'tokens.txt'), dataDir: espeakDataDir() },
      numThreads: 1,
      provider: 'cpu',
      debug: 0,
    },
    maxNumSentences: 1,
  });
  loaded.set(key, tts);
  return tts;
}

/** Words of a sentence, each given a share of its time by its length. */
function wordsOver(sentence: string, startMs: number, endMs: number): TimedWord[] {
  const words = sentence.split(/\s+/u).filter(Boolean);
  const letters = words.reduce((sum, word) => sum + [...word].length, 0);
  let at = startMs;
  return words.map((word) => {
    const length = ((endMs - startMs) * [...word].length) / letters;
    const timed = { text: word, startMs: Math.round(at), endMs: Math.round(at + length) };
    at += length;
    return timed;
  });
}

export async function speakWithPiper(voice: PiperVoice, script: string, speed: number, signal?: AbortSignal): Promise<SpokenScript> {
  const tts = loadVoice(voice);
  const parts: Float32Array[] = [];
  const words: TimedWord[] = [];
  let samples = 0;
  for (const sentence of splitSentences(script)) {
    signal?.throwIfAborted();
    if (!sentence.trim()) continue;
    const audio = tts.generate({ text: sentence.trim(), sid: 0, speed });
    const startMs = (samples * 1000) / tts.sampleRate;
    samples += audio.samples.length;
    parts.push(audio.samples);
    words.push(...wordsOver(sentence, startMs, (samples * 1000) / tts.sampleRate));
  }
  const pcm = new Int16Array(samples);
  let offset = 0;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) pcm[offset + i] = Math.max(-32768, Math.min(32767, Math.round(part[i]! * 32767)));
    offset += part.length;
  }
  const mp3 = await encodeMp3(pcm, tts.sampleRate, PIPER_MP3_KBPS, { signal });
  return { mp3, words, durationSeconds: samples / tts.sampleRate, upstreamCharacters: [] };
}
