import { describe, expect, it } from 'vitest';
import { compactTime, downloadFileName, safeFileStem } from '../../../src/engine/features/downloads/file-names.js';

describe('download file names', () => {
  it('keeps the title in Unicode but drops what some OS refuses', () => {
    expect(safeFileStem('¿Vale la pena Dunk Contest en 2026?', 'id')).toBe('¿Vale la pena Dunk Contest en 2026');
    expect(safeFileStem('AC/DC: "Live" <at> 10|20 * \\ end\u0007', 'id')).toBe('AC DC Live at 10 20 end');
    expect(safeFileStem('Public Speaking 솔직 리뷰 (2026) #shorts', 'id')).toBe('Public Speaking 솔직 리뷰 (2026) #shorts');
    expect(safeFileStem('...hidden. ', 'id')).toBe('hidden');
    expect(safeFileStem('CON', 'id')).toBe('CON_');
    expect(safeFileStem('???', 'dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
  });

  it('cuts long titles to 150 bytes of UTF-8 on a character boundary', () => {
    const stem = safeFileStem('é'.repeat(200), 'id');
    expect(Buffer.byteLength(stem)).toBeLessThanOrEqual(150);
    expect(stem).toBe('é'.repeat(75));
  });

  it('names the quality and the clip', () => {
    const base = { title: 'Leg Day', videoId: 'x' };
    expect(downloadFileName({ ...base, format: 'video', height: 720, clip: null })).toBe('Leg Day (720p).mp4');
    expect(downloadFileName({ ...base, format: 'video', height: 1080, clip: { start: 90, end: 120 } })).toBe('Leg Day (1080p, 1m30s-2m).mp4');
    expect(downloadFileName({ ...base, format: 'audio', height: null, clip: { start: 0, end: 3723.5 } })).toBe('Leg Day (0s-1h2m3.5s).mp3');
    expect(downloadFileName({ ...base, format: 'audio', height: null, clip: null })).toBe('Leg Day.mp3');
    expect(downloadFileName({ ...base, format: 'subtitles', height: null, clip: null })).toBe('Leg Day.en.srt');
    expect(compactTime(3600)).toBe('1h');
  });
});
