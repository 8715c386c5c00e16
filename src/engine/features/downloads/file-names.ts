/**
 * The served name of a download, made from the video's title: kept in Unicode, but safe on every
 * OS (no path separators, no characters Windows refuses, no control characters, no reserved
 * device names, no trailing dots or spaces) and short enough for any filesystem once the
 * quality, the clip and the extension are added: `Title (720p, 1m30s-2m).mp4`, `Title.mp3`,
 * `Title.en.srt`. It is the last segment of the download URL, and the CDN's Content-Disposition.
 */

/** Bytes of UTF-8 the title part may take (names stay well under the usual 255-byte limit). */
const MAX_STEM_BYTES = 150;
const FORBIDDEN = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

export function safeFileStem(title: string, fallback: string): string {
  let stem = title.normalize('NFC').replace(FORBIDDEN, ' ').replace(/\s+/g, ' ').trim();
  stem = truncateUtf8(stem, MAX_STEM_BYTES).replace(/[. ]+$/u, '').replace(/^[. ]+/u, '');
  if (!stem) return fallback.replace(FORBIDDEN, '_').replace(/^\.+$/u, '_') || '_';
  return RESERVED.test(stem) ? `${stem}_` : stem;
}

function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let kept = '';
  for (const character of text) {
    if (Buffer.byteLength(kept + character) > maxBytes) break;
    kept += character;
  }
  return kept.trimEnd();
}

/** 90 → "1m30s", 3723 → "1h2m3s", 45.5 → "45.5s", 120 → "2m". */
export function compactTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round((seconds % 60) * 1000) / 1000;
  const parts = [h ? `${h}h` : '', m ? `${m}m` : '', s || (!h && !m) ? `${s}s` : ''];
  return parts.join('');
}

export interface NamedDownload {
  title: string;
  videoId: string;
  format: 'video' | 'audio' | 'subtitles';
  height: number | null;
  /** The clip, when only part of the video was asked for. */
  clip: { start: number; end: number } | null;
}

export function downloadFileName(download: NamedDownload): string {
  const stem = safeFileStem(download.title, download.videoId);
  if (download.format === 'subtitles') return `${stem}.en.srt`;
  const details = [download.height ? `${download.height}p` : '', download.clip ? `${compactTime(download.clip.start)}-${compactTime(download.clip.end)}` : '']
    .filter(Boolean)
    .join(', ');
  return `${stem}${details ? ` (${details})` : ''}.${download.format === 'video' ? 'mp4' : 'mp3'}`;
}
