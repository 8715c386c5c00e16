/**
 * The one interface every command calls. The embedded engine and the remote client both
 * implement it; the CLI picks one in a single factory and never branches on which.
 */
import type { RouteInput, RouteName, RouteOutput } from './routes.js';

export interface CallOptions {
  /** Aborts a waiting call (Ctrl-C during a long-poll). */
  signal?: AbortSignal;
}

export interface ServiceTarget {
  mode: 'local' | 'remote';
  /** Data dir (local) or base URL (remote). */
  location: string;
}

export interface Service {
  readonly target: ServiceTarget;
  call<N extends RouteName>(name: N, input: RouteInput<N>, options?: CallOptions): Promise<RouteOutput<N>>;
  /** Reads a file the service handed out (audio_url, download_url) — never sends the key to a CDN. */
  fetchFile(url: string, options?: CallOptions): Promise<NodeJS.ReadableStream>;
  close(): Promise<void>;
}
