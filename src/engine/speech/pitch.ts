/**
 * Fundamental frequency (F0) estimate of a voice recording: the median F0
 * over voiced frames, by normalized autocorrelation (cross-correlation of a
 * one-period window with its lagged copy, as in RAPT's first pass).
 */

export interface PitchOptions {
  /** Search range; defaults cover adult and child speech. */
  minHz?: number;
  maxHz?: number;
  /** Only the first `maxSeconds` are analysed (default 60). */
  maxSeconds?: number;
}

/** Analysis rate after decimation: F0 tops out around 500 Hz, so ~11-16 kHz loses nothing. */
const TARGET_RATE = 11025;
const HOP_SECONDS = 0.01;
/** A frame is voiced if its best normalized correlation reaches this. */
const VOICING_THRESHOLD = 0.6;
/** Among peaks this close to the best one, the shortest lag wins (avoids octave-down errors). */
const PEAK_TOLERANCE = 0.9;
const MIN_VOICED_FRAMES = 3;

/** Median F0 in Hz over voiced frames, or null when (almost) nothing is voiced. */
export function measurePitchHz(
  input: Float32Array | Int16Array,
  sampleRate: number,
  options: PitchOptions = {},
): number | null {
  const { minHz = 60, maxHz = 500, maxSeconds = 60 } = options;
  if (!(sampleRate > 0) || !(minHz > 0) || !(maxHz > minHz)) throw new RangeError('measurePitchHz: invalid rate or range');

  const limited = input.subarray(0, Math.min(input.length, Math.ceil(maxSeconds * sampleRate)));
  const { x, rate } = decimate(toFloat(limited), sampleRate);

  const minLag = Math.max(2, Math.floor(rate / maxHz));
  const maxLag = Math.ceil(rate / minHz);
  const window = maxLag; // one period of the lowest F0 searched
  const frameLength = window + maxLag + 1;
  const hop = Math.max(1, Math.round(rate * HOP_SECONDS));
  if (x.length < frameLength) return null;

  // Energy gate: frames much quieter than the loud part of the recording are silence/noise.
  const starts: number[] = [];
  const energies: number[] = [];
  for (let s = 0; s + frameLength <= x.length; s += hop) {
    starts.push(s);
    energies.push(rms(x, s, frameLength));
  }
  const loud = [...energies].sort((a, b) => a - b)[Math.floor(energies.length * 0.95)] ?? 0;
  const gate = Math.max(1e-3, 0.1 * loud);

  const f0s: number[] = [];
  const r = new Float64Array(maxLag + 2);
  const frame = new Float64Array(frameLength);
  const energyPrefix = new Float64Array(frameLength + 1);
  for (let i = 0; i < starts.length; i++) {
    if (energies[i] < gate) continue;
    const s = starts[i];
    let mean = 0;
    for (let n = 0; n < frameLength; n++) mean += x[s + n];
    mean /= frameLength;
    for (let n = 0; n < frameLength; n++) {
      frame[n] = x[s + n] - mean;
      energyPrefix[n + 1] = energyPrefix[n] + frame[n] * frame[n];
    }
    const e0 = energyPrefix[window];
    if (e0 <= 0) continue;

    let best = -1;
    for (let lag = minLag - 1; lag <= maxLag + 1; lag++) {
      let dot = 0;
      for (let n = 0; n < window; n++) dot += frame[n] * frame[n + lag];
      const eLag = energyPrefix[lag + window] - energyPrefix[lag];
      r[lag] = eLag > 0 ? dot / Math.sqrt(e0 * eLag) : 0;
      if (lag >= minLag && lag <= maxLag && r[lag] > best) best = r[lag];
    }
    if (best < VOICING_THRESHOLD) continue;

    for (let lag = minLag; lag <= maxLag; lag++) {
      if (r[lag] >= PEAK_TOLERANCE * best && r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1]) {
        // Parabolic interpolation for sub-sample lag precision.
        const denom = r[lag - 1] - 2 * r[lag] + r[lag + 1];
        const shift = denom !== 0 ? (0.5 * (r[lag - 1] - r[lag + 1])) / denom : 0;
        f0s.push(rate / (lag + Math.max(-0.5, Math.min(0.5, shift))));
        break;
      }
    }
  }
  if (f0s.length < MIN_VOICED_FRAMES) return null;
  f0s.sort((a, b) => a - b);
  const mid = f0s.length >> 1;
  return f0s.length % 2 ? f0s[mid] : (f0s[mid - 1] + f0s[mid]) / 2;
}

function toFloat(input: Float32Array | Int16Array): Float32Array {
  if (input instanceof Float32Array) return input;
  const out = new Float32Array(input.length);
  for (let i = 0; i < input.length; i++) out[i] = input[i] / 32768;
  return out;
}

/** Integer-factor decimation with a box filter (crude, but F0 sits far below the new Nyquist). */
function decimate(x: Float32Array, sampleRate: number): { x: Float32Array; rate: number } {
  const factor = Math.floor(sampleRate / TARGET_RATE);
  if (factor < 2) return { x, rate: sampleRate };
  const out = new Float32Array(Math.floor(x.length / factor));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let k = 0; k < factor; k++) sum += x[i * factor + k];
    out[i] = sum / factor;
  }
  return { x: out, rate: sampleRate / factor };
}

function rms(x: Float32Array, start: number, length: number): number {
  let sum = 0;
  for (let n = start; n < start + length; n++) sum += x[n] * x[n];
  return Math.sqrt(sum / length);
}
