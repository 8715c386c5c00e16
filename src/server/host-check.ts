import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError, badRequest } from '../core/errors.js';

/**
 * Which `Host` a request may name. The server writes its own address into what it answers
 * (`download_url`, `audio_url`, the OpenAPI document's `servers`), taken from the Host the client
 * used; an arbitrary Host would be echoed into those URLs (and a page on another site could reach
 * a local server through DNS rebinding). So a request must name an address the server listens on
 * — with `localhost` for a loopback address, and every interface's address (and the machine's
 * name) when it listens on all of them — or a host given with `serve --allowed-host` (`*`: any);
 * any other is answered 421. A configured CDN URL (`engine cdn-url`) is used for file URLs whatever
 * the Host.
 */
export function guardHostHeader(app: FastifyInstance, allowedHosts: readonly string[] = []): void {
  const anyHost = allowedHosts.includes('*');
  const configured = allowedHosts.filter((host) => host !== '*').map((host) => host.toLowerCase().replace(/\.$/, ''));
  let listened: Set<string> | undefined;
  // Host headers already accepted, as sent: a client sends the same one on every request.
  const seen = new Set<string>();
  // Read when the server starts listening: once it stops (shutting down), it has no address left.
  app.addHook('onListen', (done) => {
    listened = listenedNames(app.server.address() as AddressInfo);
    done();
  });

  app.addHook('onRequest', (request, _reply, done) => {
    const sent = request.headers.host;
    if (sent !== undefined && seen.has(sent)) {
      done();
      return;
    }
    const host = sent?.trim().toLowerCase().replace(/\.(?=:\d+$|$)/, '');
    if (!host) {
      // HTTP/1.0 may leave it out (the listen address stands in); HTTP/1.1 must send it (RFC 9112 §3.2).
      done(request.raw.httpVersion === '1.0' ? undefined : badRequest('Invalid request: the Host header is missing (HTTP/1.1 requires it).'));
      return;
    }
    listened ??= listenedNames(localAddress(request));
    if (anyHost || listened.has(host) || configured.some((allowed) => allowed === host || allowed === host.replace(/:\d+$/, ''))) {
      if (seen.size < 256) seen.add(sent!);
      done();
      return;
    }
    done(new ServiceError({
      status: 421,
      code: 'misdirected_request',
      message: 'Misdirected request: the Host header names an address this server does not answer for.',
      hint: 'Call the server at the address `tubekit serve` printed, or start it with --allowed-host <host[:port]> for a name or proxy in front of it.',
    }));
  });
}

/** The base URL a request reached the server at: its (checked) Host, or the address it connected to. */
export function requestBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host?.trim() || hostWithPort(localAddress(request))}`;
}

/** The address and port the request's connection reached. */
function localAddress(request: FastifyRequest): AddressInfo {
  const socket = request.raw.socket;
  const address = (socket.localAddress ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');
  return { address, port: socket.localPort ?? 80, family: address.includes(':') ? 'IPv6' : 'IPv4' };
}

/** `host:port` spellings that name the address the server listens on (lower case). */
function listenedNames(address: AddressInfo): Set<string> {
  const hosts = new Set<string>([address.address]);
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  if (everywhere) {
    for (const entries of Object.values(os.networkInterfaces())) {
      for (const entry of entries ?? []) hosts.add(entry.address.replace(/%.*$/, ''));
    }
    hosts.add(os.hostname().toLowerCase());
  }
  if (everywhere || isLoopback(address.address)) hosts.add('localhost');
  const names = new Set<string>();
  for (const host of hosts) {
    const spelled = host.includes(':') ? `[${host}]` : host;
    names.add(`${spelled}:${address.port}`);
    if (address.port === 80) names.add(spelled);
  }
  return names;
}

const isLoopback = (address: string) => address === '::1' || address.startsWith('127.') || address === '::ffff:127.0.0.1';

function hostWithPort(address: AddressInfo): string {
  return `${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`;
}
