/** Signal generators and measurements shared by the speech tests. */

/** A tone with harmonics 1-4 (amplitudes 0.5/0.3/0.2/0.1): voice-like, with a clear F0. */
export function harmonicTone(f0: number, sampleRate: number, seconds: number, amplitude = 1): Float32Array {
  const n = Math.round(sampleRate * seconds);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate;
    out[i] =
      amplitude *
      (0.5 * Math.sin(2 * Math.PI * f0 * t) +
        0.3 * Math.sin(2 * Math.PI * 2 * f0 * t + 0.3) +
        0.2 * Math.sin(2 * Math.PI * 3 * f0 * t + 1) +
        0.1 * Math.sin(2 * Math.PI * 4 * f0 * t));
  }
  return out;
}

export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i] * 32767)));
  return out;
}

export function rms(samples: Int16Array | Float32Array): number {
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] * scale) ** 2;
  return samples.length ? Math.sqrt(sum / samples.length) : 0;
}

/** Deterministic pseudo-random bytes (xorshift), so failures reproduce. */
export function pseudoRandomBytes(length: number, seed = 12345): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** Pseudo-random white noise in [-amplitude, amplitude]. */
export function whiteNoise(length: number, amplitude = 0.5, seed = 99): Float32Array {
  const bytes = pseudoRandomBytes(length * 2, seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = ((bytes.readUInt16LE(i * 2) / 65535) * 2 - 1) * amplitude;
  return out;
}
