/**
 * Every check of `tubekit doctor`, in the order it prints them. A new check is one module here
 * (see ../check.ts).
 */
import type { DoctorCheck } from '../check.js';
import { dataDirCheck, databaseCheck, diskSpaceCheck } from './data-dir.js';
import { ffmpegCheck } from './ffmpeg.js';
import { ffprobeCheck } from './ffprobe.js';
import { jsRuntimeCheck } from './js-runtime.js';
import { nodeCheck } from './node.js';
import { platformCheck } from './platform.js';
import { remoteCheck } from './remote.js';
import { elevenLabsCheck, minimaxCheck } from './speech-providers.js';
import { visionModelCheck } from './vision-model.js';
import { ytdlpCheck } from './ytdlp.js';

export const DOCTOR_CHECKS: readonly DoctorCheck[] = [
  nodeCheck,
  ffmpegCheck,
  ffprobeCheck,
  ytdlpCheck,
  jsRuntimeCheck,
  dataDirCheck,
  diskSpaceCheck,
  databaseCheck,
  platformCheck,
  visionModelCheck,
  elevenLabsCheck,
  minimaxCheck,
  remoteCheck,
];
