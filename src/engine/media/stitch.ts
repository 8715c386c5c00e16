/**
 * Compressed audio for a whole section from a handful of encodings. Encoding an hour of audio
 * takes ffmpeg 5 to 12 seconds; but a sample-world sound track is a few distinct pieces (sentences,
 * words, notes) repeated over silence. So each distinct piece is encoded once, in one ffmpeg run
 * with silence around every piece, and the section's frame stream is laid out from those frames
 * and one silent frame: an hour of audio costs about as much as its distinct minute or two.
 *
 * Frame j of an encoding decodes to input samples [j·n − delay, (j+1)·n − delay) (n samples a
 * frame). A piece encoded at frame m and wanted at sample p of the section therefore goes to
 * output frames shifted by round((p − delay) / n) − m: the decoded output then lines up with the
 * section's own timeline, within half a frame (13 to 23 ms), priming included. Neighbouring frames
 * of silence travel with each piece, so the decoder's overlap from frame to frame sees what the
 * encoder saw. A piece still sounding when the next one starts is cut there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FrameCodec } from './audio-frames.js';
import { runFfmpeg } from './ffmpeg.js';
import { SOUND_RATE, type SoundPlan } from './sound-plan.js';

/** Silent frames before the first piece of the batch; the silent frame is taken from among them. */
const LEAD_FRAMES = 6;
const SILENT_FRAME = 3;

interface EncodedPiece {
  /** Frame of the batch where the piece's PCM begins. */
  start: number;
  /** The batch frames that decode to the piece (plus one of silence either side), from batch frame `first`. */
  first: number;
  frames: Buffer[];
}

/** Writes the section's audio as a bare frame stream of `codec` to `output`. */
export async function stitchSoundTrack(plan: SoundPlan, codec: FrameCodec, output: string, workDir: string, signal?: AbortSignal): Promise<void> {
  const { encoded, silent } = await encodePieces(plan, codec, workDir, signal);
  const n = codec.samplesPerFrame;
  const slots: Array<Buffer | undefined> = new Array(Math.ceil(plan.samples / n));
  for (const placement of plan.placements) {
    const piece = encoded.get(placement.piece)!;
    const shift = Math.round((placement.at - plan.first - codec.delay) / n) - piece.start;
    piece.frames.forEach((frame, index) => {
      const slot = piece.first + index + shift;
      if (slot >= 0 && slot < slots.length) slots[slot] = frame;
    });
  }
  const stream = fs.createWriteStream(output);
  // Writes in batches of frames: an hour is tens of thousands of them.
  const batch: Buffer[] = [];
  for (let slot = 0; slot < slots.length; slot += 1) {
    batch.push(slots[slot] ?? silent);
    if (batch.length === 512 || slot === slots.length - 1) {
      if (!stream.write(Buffer.concat(batch.splice(0)))) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
    }
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** One ffmpeg run over every piece the plan uses, silence between them. */
async function encodePieces(plan: SoundPlan, codec: FrameCodec, workDir: string, signal?: AbortSignal) {
  const n = codec.samplesPerFrame;
  const delayFrames = Math.ceil(codec.delay / n);
  const gap = delayFrames + 3;
  const used = [...new Set(plan.placements.map((placement) => placement.piece))];
  const layout: Array<{ name: string; start: number; frames: number }> = [];
  let frame = LEAD_FRAMES;
  for (const name of used) {
    const frames = Math.ceil(plan.pieces.get(name)!.length / n);
    layout.push({ name, start: frame, frames });
    frame += frames + gap;
  }
  const pcm = new Int16Array(frame * n);
  for (const { name, start } of layout) pcm.set(plan.pieces.get(name)!, start * n);

  const file = path.join(workDir, `pieces.${codec.name}`);
  await runFfmpeg(['-f', 's16le', '-ar', String(SOUND_RATE), '-ac', '1', '-i', 'pipe:0', ...codec.encoderArgs, file], {
    input: Readable.from([Buffer.from(pcm.buffer)]),
    signal,
  });
  const frames = codec.split(await fs.promises.readFile(file));
  const encoded = new Map<string, EncodedPiece>();
  for (const piece of layout) {
    const first = piece.start + Math.floor(codec.delay / n) - 1;
    const end = Math.min(frames.length, piece.start + piece.frames + delayFrames + 1);
    encoded.set(piece.name, { start: piece.start, first, frames: frames.slice(first, end) });
  }
  return { encoded, silent: frames[SILENT_FRAME]! };
}
