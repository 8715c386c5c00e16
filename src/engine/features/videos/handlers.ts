import type { Handlers } from '../../context.js';
import { videoInfo } from './video-info.js';

export const videoHandlers: Handlers = {
  'video.info': videoInfo,
};
