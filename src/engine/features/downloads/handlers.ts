import type { Handlers } from '../../context.js';
import { downloadVideo } from './download.js';

export const downloadHandlers: Handlers = {
  download: downloadVideo,
};
