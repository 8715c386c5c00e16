/**
 * A platform's media source: the real files of a video (its picture and sound, its captions), as
 * the platform serves them. The live platform implements it with yt-dlp and ffmpeg; the sample
 * world has none (its media are rendered by the engine from the world's data).
 *
 * Two steps, so that every rule is judged before any media is fetched: `describe` reads the
 * platform's own metadata of the video (no media); `choose` picks, from that metadata alone, what
 * would be fetched for a request and how large it would be; `fetch` then makes the file.
 */

export type MediaFormat = 'video' | 'audio' | 'subtitles';

/** What the platform's metadata says of a video's media. */
export interface MediaDescription {
  video_id: string;
  title: string;
  channel_id: string;
  /** Decimal seconds. */
  duration_seconds: number;
  /** The platform's metadata as it came (read back by `choose` and `fetch` of the same source). */
  readonly source: unknown;
}

/** A part of the video: `start` and `duration` in seconds from the video's start. */
export interface MediaSection {
  start: number;
  duration: number;
}

export interface MediaRequest {
  format: MediaFormat;
  /** Frame height asked for (video only). */
  height: number | null;
  /** The part asked for; the whole video when it spans it. */
  section: MediaSection;
}

/** What `fetch` will deliver for a request, judged from the metadata alone. */
export interface MediaChoice {
  format: MediaFormat;
  /** Frame height that will be delivered (video), at most the one asked for unless none is that low. */
  height: number | null;
  /** Expected size of the file, from the real streams' sizes or bitrates (0 for subtitles). */
  estimated_bytes: number;
  /** Whether ffmpeg re-encodes a stream (no stream of the delivered codecs fits). */
  reencode: boolean;
  /** Subtitles: whose captions they are. */
  captions: 'human' | 'auto' | null;
  /** The source's own choice (stream ids, caption language), read back by `fetch`. */
  readonly source: unknown;
}

/** How far a fetch is. */
export interface MediaProgress {
  /** 0 to 1 when the total is known. */
  fraction: number | null;
  downloaded_bytes: number;
  total_bytes: number | null;
  /** Seconds left, when the fetcher can tell. */
  eta_seconds: number | null;
}

export interface MediaFetchOptions {
  /** A folder of the fetch's own for its pieces (its caller removes it). */
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (progress: MediaProgress) => void;
}

export interface PlatformMedia {
  /**
   * The video's media metadata. A video that cannot be had answers the service's errors: 400
   * `video_unavailable` (private, removed, age-restricted, members-only, not yet premiered, live)
   * with the platform's reason; 503 when the platform asks to sign in or to prove this is not a bot,
   * or when the tools are missing or too old.
   */
  describe(videoId: string, signal?: AbortSignal): MediaDescription | Promise<MediaDescription>;
  /** What would be fetched for `request`; 400 `subtitles_unavailable` when it has no English captions. */
  choose(description: MediaDescription, request: MediaRequest): MediaChoice;
  /**
   * Makes the chosen file at `output` (MP4 H.264/AAC, MP3, or SRT) and returns what it holds. Nothing
   * is ever left at `output` unless it is complete.
   */
  fetch(description: MediaDescription, choice: MediaChoice, section: MediaSection, output: string, options: MediaFetchOptions): Promise<FetchedMedia>;
}

export interface FetchedMedia {
  size_bytes: number;
  /** Seconds the file lasts (as probed); for subtitles, the video's length. */
  duration_seconds: number;
  /** Frame height of a video file, as probed. */
  height: number | null;
}
