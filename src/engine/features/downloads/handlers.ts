import type { Handlers } from '../../context.js';
import { sampleOnly } from '../sample-only.js';
import { downloadVideo } from './download.js';

export const downloadHandlers: Handlers = {
  download: sampleOnly('Downloading videos', downloadVideo),
};
