import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RouteInput, RouteName, RouteOutput } from '../core/routes.js';
import { notFound } from '../core/errors.js';
import type { CallOptions, RawRequest, Service, ServiceTarget } from '../core/service.js';
import type { Engine } from './engine.js';
import { openEngine, type OpenEngineOptions } from './open-engine.js';

export interface LocalServiceOptions extends OpenEngineOptions {
  /** The key to act as; the default local user's key when absent. */
  apiKey?: string;
}

/**
 * The Service in-process: every call is authenticated and validated exactly as `serve` would,
 * and answers are JSON-normalised so both engines return identical bodies.
 */
export class LocalService implements Service {
  readonly target: ServiceTarget;
  /** The key to act as: given, or the default local user's, looked up on the first call. */
  private apiKey?: string | Promise<string>;

  constructor(
    readonly engine: Engine,
    apiKey?: string,
  ) {
    this.apiKey = apiKey;
    this.target = { mode: 'local', location: engine.store.dialect === 'sqlite' ? engine.dataDir : engine.store.description };
  }

  static async open(options: LocalServiceOptions): Promise<LocalService> {
    return new LocalService(await openEngine(options), options.apiKey);
  }

  async call<N extends RouteName>(name: N, input: RouteInput<N>, options: CallOptions = {}): Promise<RouteOutput<N>> {
    this.apiKey ??= this.engine.defaultKey();
    const user = await this.engine.authenticate(await this.apiKey);
    const result = await this.engine.handle(name, input, user, options.signal, undefined, options.onProgress);
    return JSON.parse(JSON.stringify(result)) as RouteOutput<N>;
  }

  async fetchFile(url: string): Promise<NodeJS.ReadableStream> {
    if (!url.startsWith('file:')) throw new Error(`The embedded engine serves files by file:// URL, not ${url}`);
    return fs.createReadStream(fileURLToPath(url));
  }

  async close(): Promise<void> {
    await this.engine.close();
  }

  /** The engine has exactly the route table's endpoints; anything else is not found. */
  async callPath(request: RawRequest): Promise<unknown> {
    // Matching needs the whole route table, which other calls never load.
    const { methodsForPath } = await import('../core/route-match.js');
    const methods = methodsForPath(request.path.split('?')[0]!);
    throw methods.length > 0
      ? notFound(`${request.method.toUpperCase()} ${request.path} is not an endpoint of the service; that path takes ${methods.join(', ')}.`)
      : notFound(`${request.method.toUpperCase()} ${request.path} is not an endpoint of the service (the embedded engine has exactly the route table's).`);
  }
}
