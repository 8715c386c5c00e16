/**
 * How a terminated row's ids and thumbnails are named. The tables key channels by `idx` (their
 * termination order) and keep no ids: whoever fills them says how an `idx` and a video's ordinal
 * become ids — the sample world derives them from its seed; a store that records ids reads them back.
 */
export interface TerminatedNaming {
  channelId(idx: number): string;
  /** The `idx` a channel id names, or null when it names no terminated row (a live channel's id, or none). */
  channelIdx(channelId: string): number | null;
  /** Id of the channel's top video number `ordinal` (most viewed first). */
  videoId(idx: number, ordinal: number): string;
  /** The channel's picture, or null when none is known (a live store keeps the one it was given). */
  channelThumbnail(channelId: string): string | null;
  videoThumbnail(videoId: string): string;
}
