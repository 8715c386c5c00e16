import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The abort signal of one HTTP request, made only when a handler asks for it. Few routes do
 * (long-polls, long work): an AbortController per request, and the DOMException its abort makes
 * when every reply closes, cost serve a tenth of its time under load.
 *
 * The caller went away when the response closes before it is sent, or the socket is gone. The
 * request's own 'close' says nothing of the kind: it fires once a body has been read.
 */
export function lazyRequestSignal(request: IncomingMessage, response: ServerResponse): () => AbortSignal {
  let controller: AbortController | undefined;
  return () => {
    if (!controller) {
      const made = new AbortController();
      controller = made;
      const abort = () => made.abort();
      // Asked for after the caller went away: the 'close' it would wait for has already passed.
      if (response.destroyed || request.socket?.destroyed) abort();
      else response.once('close', abort);
    }
    return controller.signal;
  };
}
