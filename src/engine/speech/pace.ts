/**
 * The pace of a sample as an eSpeak rate setting. eSpeak's `rate` is nominally words a minute,
 * but its output runs about a quarter faster than the number says (175 speaks some 218 words a
 * minute of plain English), and how much depends on the words. So the sample's pace is not
 * counted in words and handed over as a setting: eSpeak reads the sample's own transcription,
 * and the setting is scaled until it takes as long as the sample's speech did.
 */
import { DEFAULT_RATE_WPM, MAX_RATE_WPM, MIN_RATE_WPM, getSynthesizer } from './synthesizer.js';
import { speechSpanSeconds } from './speech-span.js';

/** Readings of the transcription: the first from the default rate, then corrections. */
const FIT_ROUNDS = 3;
/** Close enough: a setting within this many words a minute of the last one. */
const SETTLED_WPM = 2;

/**
 * The rate setting at which `voice` says `transcription` in `speechSeconds` (the sample's speech,
 * silence around it left out); undefined without words or a duration to fit.
 */
export async function fitSpeakingRate(transcription: string | undefined, speechSeconds: number, voice: string): Promise<number | undefined> {
  if (!transcription || !/[\p{L}\p{N}]/u.test(transcription) || !(speechSeconds > 0)) return undefined;
  const synthesizer = await getSynthesizer();
  let rate = DEFAULT_RATE_WPM;
  for (let round = 0; round < FIT_ROUNDS; round += 1) {
    const spoken = await synthesizer.synthesize(transcription, { voice, rate });
    const took = speechSpanSeconds(spoken.samples, spoken.sampleRate) ?? spoken.samples.length / spoken.sampleRate;
    // Time taken scales as one over the rate: scale the rate by how much too long (or short) it took.
    const next = Math.min(MAX_RATE_WPM, Math.max(MIN_RATE_WPM, Math.round((rate * took) / speechSeconds)));
    const settled = Math.abs(next - rate) <= SETTLED_WPM;
    rate = next;
    if (settled) break;
  }
  return rate;
}
