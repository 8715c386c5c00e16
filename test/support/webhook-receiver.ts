/**
 * A webhook receiver on 127.0.0.1 for tests: records every request it gets, verifies each with the
 * `standardwebhooks` package (a verifier this project did not write), and answers as told — fail
 * the first N requests, answer slowly, redirect, or send a huge body.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** The verified payload, or the verifier's error message. */
  verified: { ok: true; payload: unknown } | { ok: false; error: string };
}

export interface ReceiverBehaviour {
  /** Answer 500 to this many requests first. */
  failFirst?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer 302 to this location. */
  redirectTo?: string;
  /** Answer 200 with a body this many bytes long. */
  hugeBodyBytes?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Bytes the receiver managed to write of its huge bodies. */
  bytesWritten: number;
  behaviour: ReceiverBehaviour;
  /** The secret signatures are verified with (set after the endpoint is made). */
  secret?: string;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: ReceiverBehaviour = {}, path = '/hooks'): Promise<Receiver> {
  let failures = 0;
  const receiver: Receiver = { url: '', received: [], bytesWritten: 0, behaviour, close: async () => undefined };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      let verified: Received['verified'];
      try {
        verified = { ok: true, payload: new Webhook(receiver.secret ?? 'whsec_AAAA').verify(body, headers) };
      } catch (error) {
        verified = { ok: false, error: (error as Error).message };
      }
      receiver.received.push({ headers, body, verified });
      const answer = () => {
        const { failFirst = 0, redirectTo, hugeBodyBytes } = receiver.behaviour;
        if (failures < failFirst) {
          failures += 1;
          response.writeHead(500).end('not yet');
        } else if (redirectTo) {
          response.writeHead(302, { location: redirectTo }).end();
        } else if (hugeBodyBytes) {
          response.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = Buffer.alloc(16 * 1024, 'x');
          const write = () => {
            while (receiver.bytesWritten < hugeBodyBytes) {
              receiver.bytesWritten += chunk.byteLength;
              if (!response.write(chunk)) return void response.once('drain', write);
            }
            response.end();
          };
          response.on('close', () => undefined);
          write();
        } else {
          response.writeHead(204).end();
        }
      };
      if (receiver.behaviour.delayMs) setTimeout(answer, receiver.behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
