/**
 * The route table's `download` part: video, audio and subtitle downloads.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import * as media from '../schemas/media.js';

export const downloadRoutes = routePart('download', {
  download: defineRoute({
    method: 'POST', path: '/api/download-video', encoding: 'json', input: media.downloadInput,
    response: media.downloadOutput, summary: 'Download a video, its audio or its subtitles', scope: 'generations',
  }),
  'video.info': defineRoute({
    method: 'GET', path: '/api/video', encoding: 'query', input: media.videoInfoInput,
    response: media.videoInfoOutput, summary: 'One video\'s metadata, as yt-dlp --dump-json gives it', extension: true,
  }),
});
