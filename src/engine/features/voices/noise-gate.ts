/**
 * A frame noise gate for sample analysis. A steady background (hum, hiss, room tone) louder
 * than a tenth of the speech level makes the whole recording look like speech, so the pace
 * derived from a transcription comes out too slow; silencing frames near the noise floor
 * leaves only the speech for the profile to measure.
 */

const FRAME_SECONDS = 0.02;
/** The noise floor is the level of the quietest frames: recordings pause between phrases. */
const FLOOR_PERCENTILE = 0.1;
/** Frames within this factor of the floor are noise. */
const GATE_OVER_FLOOR = 2.5;

export function reduceNoise(pcm: Float32Array, sampleRate: number): Float32Array {
  const frame = Math.max(1, Math.round(sampleRate * FRAME_SECONDS));
  const levels: number[] = [];
  for (let start = 0; start < pcm.length; start += frame) {
    const end = Math.min(pcm.length, start + frame);
    let sum = 0;
    for (let n = start; n < end; n++) sum += pcm[n] * pcm[n];
    levels.push(Math.sqrt(sum / (end - start)));
  }
  if (levels.length === 0) return pcm;
  const floor = [...levels].sort((a, b) => a - b)[Math.floor(levels.length * FLOOR_PERCENTILE)];
  const gate = floor * GATE_OVER_FLOOR;
  const out = new Float32Array(pcm);
  levels.forEach((level, index) => {
    if (level <= gate) out.fill(0, index * frame, Math.min(pcm.length, (index + 1) * frame));
  });
  return out;
}
