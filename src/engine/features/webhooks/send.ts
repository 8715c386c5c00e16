/**
 * One attempt: a POST of the signed body to the address that was checked (the connection never
 * resolves the name again), within the time limit, redirects not followed (a 3xx is a failed
 * attempt), and at most `maxResponseBytes` of the answer read.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export interface SendRequest {
  url: URL;
  /** The checked address the connection is made to. */
  address: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  maxResponseBytes: number;
}

export interface SendResult {
  status: number | null;
  error: string | null;
  /** What was read of the answer (at most maxResponseBytes). */
  bytesRead: number;
}

export function sendWebhook(request: SendRequest): Promise<SendResult> {
  const family = net.isIPv6(request.address) ? 6 : 4;
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const outgoing = client.request(
      request.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(request.body), 'user-agent': 'tubekit-webhooks' },
        lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          options?.all ? callback(null, [{ address: request.address, family }]) : callback(null, request.address, family)) as never,
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let bytesRead = 0;
        const done = () => {
          const ok = status >= 200 && status < 300;
          const redirect = status >= 300 && status < 400;
          finish({ status, error: ok ? null : redirect ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`, bytesRead });
        };
        response.on('data', (chunk: Buffer) => {
          bytesRead += chunk.byteLength;
          if (bytesRead >= request.maxResponseBytes) {
            bytesRead = Math.min(bytesRead, request.maxResponseBytes);
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      },
    );
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish({ status: null, error: `timed out after ${request.timeoutMs / 1000} s`, bytesRead: 0 });
    }, request.timeoutMs);
    outgoing.on('error', (error) => finish({ status: null, error: error.message, bytesRead: 0 }));
    outgoing.end(request.body);
  });
}
