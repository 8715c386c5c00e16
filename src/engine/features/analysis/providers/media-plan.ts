/**
 * What a vision model is given at each `media_resolution`. The hosted service's own model samples
 * about one frame a second; a chat-completions model is sent still frames, so their number and
 * size are bounded to what such APIs take in one request (OpenAI: up to 500 images and 50 MB a
 * request; local models far less) and what a person would wait for:
 *
 *   low      the video at 360p; up to 12 frames, each within 512×512 px, JPEG q5, ≤ 80 KB
 *            (so ≤ 0.96 MB of images, ≈ 1.3 MB as base64); `detail: low`
 *   default  the video at 720p; up to 32 frames, each within 1024×1024 px, JPEG q5, ≤ 200 KB
 *            (so ≤ 6.4 MB of images, ≈ 8.6 MB as base64); `detail: high`
 *
 * Frames are spread over the whole video, one a second at most. Gemini is sent the video file
 * itself (at the same height) and the resolution as its own setting.
 */
import type { FrameSampling } from '../../../media/frames.js';

export type MediaResolution = 'low' | 'default';

export interface MediaPlan extends FrameSampling {
  /** Height of the video fetched for the model. */
  height: number;
  /** OpenAI's per-image detail hint. */
  detail: 'low' | 'high';
  /** Gemini's `generationConfig.mediaResolution` (absent: the API's default). */
  geminiMediaResolution?: 'MEDIA_RESOLUTION_LOW';
}

export const MEDIA_PLANS: Record<MediaResolution, MediaPlan> = {
  low: { height: 360, maxFrames: 12, maxSide: 512, jpegQuality: 5, maxBytes: 80 * 1024, detail: 'low', geminiMediaResolution: 'MEDIA_RESOLUTION_LOW' },
  default: { height: 720, maxFrames: 32, maxSide: 1024, jpegQuality: 5, maxBytes: 200 * 1024, detail: 'high' },
};

/** Transcript text sent with the frames, at most (about 6,000 tokens). */
export const TRANSCRIPT_MAX_CHARACTERS = 24_000;
