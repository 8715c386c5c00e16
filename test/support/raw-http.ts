/**
 * A raw HTTP/1.1 connection for server tests that need what fetch hides: several requests on one
 * socket, bytes sent exactly as written (bad framing, trickled bodies), and whether and how the
 * server closed the connection.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiting?: () => void;
  /** Set once the server closed the socket (or it failed): 'end' for a clean close, else the error code. */
  closedBy?: string;
  readonly closed: Promise<void>;

  /** `host:port` of the server, as a Host header names it. */
  readonly host: string;

  private constructor(private readonly socket: net.Socket) {
    this.host = `${socket.remoteAddress}:${socket.remotePort}`;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => {
      socket.on('error', (error: NodeJS.ErrnoException) => {
        this.closedBy ??= error.code ?? 'error';
      });
      socket.on('close', () => {
        this.closedBy ??= 'end';
        this.waiting?.();
        resolve();
      });
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes bytes; false once the socket can no longer take them. */
  write(data: string | Buffer): boolean {
    if (this.socket.destroyed || !this.socket.writable) return false;
    this.socket.write(data);
    return true;
  }

  /** The next whole response (framed by Content-Length or chunked), or undefined if the socket closes or `timeoutMs` passes first. */
  async response(timeoutMs = 5_000): Promise<RawResponse | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = takeResponse(this.buffer);
      if (parsed) {
        this.buffer = this.buffer.subarray(parsed.length);
        return parsed.response;
      }
      if (this.closedBy !== undefined || Date.now() >= deadline) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

function takeResponse(buffer: Buffer): { response: RawResponse; length: number } | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  let offset = headEnd + 4;
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', offset);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buffer.subarray(offset, lineEnd).toString('latin1'), 16);
      if (buffer.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    return { response: { status, headers, body: Buffer.concat(parts).toString('utf8') }, length: offset };
  }
  const size = Number(headers['content-length'] ?? 0);
  if (buffer.length < offset + size) return undefined;
  return { response: { status, headers, body: buffer.subarray(offset, offset + size).toString('utf8') }, length: offset + size };
}
