/** How long a recording's speech lasts, silence before and after left out. */

/** Seconds from the first to the last 20 ms frame louder than 10% of the loud level; null if all quiet. */
export function speechSpanSeconds(pcm: Float32Array | Int16Array, sampleRate: number): number | null {
  const scale = pcm instanceof Int16Array ? 1 / 32768 : 1;
  const frame = Math.max(1, Math.round(sampleRate * 0.02));
  const levels: number[] = [];
  for (let s = 0; s + frame <= pcm.length; s += frame) {
    let sum = 0;
    for (let n = s; n < s + frame; n++) sum += (pcm[n] * scale) ** 2;
    levels.push(Math.sqrt(sum / frame));
  }
  if (levels.length === 0) return null;
  const loud = [...levels].sort((a, b) => a - b)[Math.floor(levels.length * 0.95)];
  const gate = Math.max(1e-3, 0.1 * loud);
  const first = levels.findIndex((l) => l >= gate);
  if (first < 0) return null;
  let last = levels.length - 1;
  while (levels[last] < gate) last--;
  return ((last - first + 1) * frame) / sampleRate;
}
