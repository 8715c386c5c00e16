/** A video's captions as the platform serves them. */
export type CaptionSource = 'human' | 'auto';

export interface TranscriptCue {
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  video_id: string;
  /** English: the subtitle language the service delivers. */
  language: 'en';
  source: CaptionSource;
  cues: TranscriptCue[];
}
