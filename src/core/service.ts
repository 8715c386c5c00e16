/**
 * The one interface every command calls. The embedded engine and the remote client both
 * implement it; the CLI picks one in a single factory and never branches on which.
 */
import type { RouteInput, RouteName, RouteOutput } from './routes.js';

export interface CallOptions {
  /** Aborts a waiting call (Ctrl-C during a long-poll). */
  signal?: AbortSignal;
  /**
   * How far a long call's work is (a download's fetch: fraction, bytes, seconds left); in-process
   * only — over HTTP the call answers when done.
   */
  onProgress?: (progress: { fraction: number | null; downloaded_bytes: number; total_bytes: number | null; eta_seconds: number | null }) => void;
  /** Extra HTTP headers (`tubekit api -H`); remote only: the embedded engine has no HTTP. */
  headers?: Record<string, string>;
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
  /** A path the route table does not have (`tubekit api`); the embedded engine answers 404. */
  callPath(request: RawRequest, options?: CallOptions): Promise<unknown>;
}

/** A request to any path of the service, its fields sent as `encoding` says. */
export interface RawRequest {
  method: string;
  /** From the base URL on, e.g. `/api/something-new`. */
  path: string;
  encoding: 'query' | 'json' | 'multipart';
  fields: Record<string, unknown>;
}
