/**
 * undici parses HTTP with llhttp compiled to WebAssembly, once, on the process's first connection.
 * V8 compiles it with its baseline compiler (Liftoff), then again with its optimising one in
 * background threads — and Node waits for those threads before it exits: about 0.3 s added to
 * every remote command on a busy 2-core machine, for a parser that reads a few headers. So the
 * first connection is made with the baseline compiler only. A module keeps the tiers it was
 * compiled with, so the flag is restored at once and WebAssembly loaded later (jq-wasm) is
 * optimised as usual.
 */
import v8 from 'node:v8';

let parserCompiled = false;

/** Runs `connect` (a request, the process's first when the parser is not compiled yet). */
export async function withBaselineParser<T>(connect: () => Promise<T>): Promise<T> {
  if (parserCompiled) return connect();
  parserCompiled = true;
  v8.setFlagsFromString('--liftoff-only');
  try {
    return await connect();
  } finally {
    v8.setFlagsFromString('--no-liftoff-only');
  }
}
