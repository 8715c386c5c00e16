/**
 * Lines of a stream, one at a time, holding at most one line in memory: a file of a million
 * channels is never read whole, and a "line" of a gigabyte (a file that is not JSON lines) is
 * skipped as too long once it passes the limit, without being kept.
 */
const NEWLINE = 0x0a;

export type ReadLine = { number: number; text: string } | { number: number; problem: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

const sizeText = (bytes: number) => (bytes >= 1 << 20 ? `${+(bytes / (1 << 20)).toFixed(1)} MB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`);

export async function* readLines(input: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<ReadLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let number = 0;

  const finish = (): ReadLine => {
    number += 1;
    if (tooLong) return { number, problem: `longer than ${sizeText(maxBytes)} (is the file JSON lines, one channel a line?)` };
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, size);
    try {
      let text = decoder.decode(bytes);
      if (number === 1 && text.startsWith('\ufeff')) text = text.slice(1);
      return { number, text: text.endsWith('\r') ? text.slice(0, -1) : text };
    } catch {
      return { number, problem: 'not UTF-8 text' };
    }
  };
  const keep = (piece: Buffer) => {
    if (tooLong || piece.length === 0) return;
    size += piece.length;
    if (size > maxBytes) {
      tooLong = true;
      parts = [];
      return;
    }
    parts.push(piece);
  };

  for await (const raw of input) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    let start = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
      keep(chunk.subarray(start, at));
      yield finish();
      parts = [];
      size = 0;
      tooLong = false;
      start = at + 1;
    }
    // The rest waits for the next chunk; copied, since a stream may reuse its buffers.
    keep(Buffer.from(chunk.subarray(start)));
  }
  if (size > 0 || tooLong) yield finish();
}
