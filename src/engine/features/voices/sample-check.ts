/**
 * The rules an uploaded voice sample must meet: format judged by content, and a duration
 * window per provider. (Size is refused earlier, while the upload streams.) Every refusal is a
 * 400 that names the form field, so the caller knows what to fix.
 */
import { badRequest } from '../../../core/errors.js';
import type { UploadedFile } from '../../../core/schemas/params.js';
import { AudioSampleError, inspectAudioSample, type AudioSampleInfo } from '../../speech/index.js';

export interface SampleRule {
  /** The form field carrying the file: `audioFile` (stealth) or `audio_file` (alt). */
  field: string;
  /** Who the rule is for, in messages: "stealth clones". */
  label: string;
  minSeconds?: number;
  maxSeconds?: number;
}

/**
 * A recording cut at exactly the limit can measure a little over it: MP3 adds encoder delay and
 * padding (about 0.2 s at 8 kHz, the lowest rate) that headerless files count as duration.
 */
export const DURATION_ALLOWANCE_SECONDS = 0.25;

export async function checkSample(file: UploadedFile, rule: SampleRule): Promise<AudioSampleInfo> {
  let info: AudioSampleInfo;
  try {
    info = await inspectAudioSample(file.data);
  } catch (error) {
    if (error instanceof AudioSampleError) throw badRequest(`Invalid request: ${rule.field}: ${error.message}`);
    throw error;
  }
  const seconds = info.durationSeconds;
  const shown = seconds.toFixed(1);
  if (rule.maxSeconds !== undefined && seconds > rule.maxSeconds + DURATION_ALLOWANCE_SECONDS) {
    throw badRequest(
      `Invalid request: ${rule.field}: the sample is ${shown} seconds long; ${rule.label} take at most ${rule.maxSeconds} seconds.`,
      'Trim the recording and try again.',
    );
  }
  if (rule.minSeconds !== undefined && seconds < rule.minSeconds - DURATION_ALLOWANCE_SECONDS) {
    throw badRequest(
      `Invalid request: ${rule.field}: the sample is ${shown} seconds long; ${rule.label} need at least ${rule.minSeconds} seconds.`,
      'Record a longer sample and try again.',
    );
  }
  return info;
}
