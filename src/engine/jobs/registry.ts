/**
 * Job processors: how a feature puts work on the shared queue and has a worker run it.
 *
 * 1. Register one processor per job kind, at module load of the feature:
 *
 *      registerJobProcessor<GenerationInput, GenerationOutput>({
 *        kind: 'generation',   // stored in jobs.kind
 *        family: 'task',       // 'task': pending → processing, string ids, GET /api/job-status/:id
 *                              // 'channel': queued → running, integer ids (process-channel)
 *        async process(job, ctx) {
 *          // job.input is what was enqueued. ctx.engine reaches db, settings, platform, clock;
 *          // ctx.signal aborts when the worker stops or loses the lease: stop work promptly.
 *          return { audio_path: '…' };   // JSON; stored in jobs.result, read back as job.output
 *          // Throwing fails the job; the error's message becomes the job's `error`.
 *        },
 *        describe(job, request) { // task family: extra fields of the job-status body (see task-status.ts);
 *                              // `request` is the reader's (e.g. URLs point at the server it reached)
 *          return job.output ? { audio_url: urlFor(job.output.audio_path) } : {};
 *        },
 *      });
 *
 * 2. Enqueue from a handler: `request.engine.jobs.enqueue({ kind, userId, input, publicId?,
 *    idempotencyKey? })`. It returns the row and makes sure a worker will run it (in-process
 *    workers, or a detached `tubekit engine worker --until-idle` in local CLI mode).
 *
 * A job whose worker dies mid-run is run again (so `process` must be safe to repeat) up to
 * `maxAttempts` claims, then fails with an error saying so.
 */
import type { EngineContext, RequestContext } from '../context.js';
import type { Job, JobFamily } from './job-row.js';

export interface JobProcessContext {
  readonly engine: EngineContext;
  /** Aborted when the worker shuts down or another worker took the job over. */
  readonly signal: AbortSignal;
}

export interface JobProcessor<Input = any, Output = any> {
  kind: string;
  family: JobFamily;
  process(job: Job<Input, Output>, ctx: JobProcessContext): Promise<Output>;
  /** Task family: fields added to the job-status body (state-independent fields come from the queue). */
  describe?(job: Job<Input, Output>, request: RequestContext): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Claims before a job whose workers keep dying is failed (default: the queue's). */
  maxAttempts?: number;
}

const processors = new Map<string, JobProcessor>();

export function registerJobProcessor<Input, Output>(processor: JobProcessor<Input, Output>): void {
  const existing = processors.get(processor.kind);
  if (existing && existing !== processor) throw new Error(`a job processor for kind "${processor.kind}" is already registered`);
  processors.set(processor.kind, processor as JobProcessor);
}

export function jobProcessor(kind: string): JobProcessor | undefined {
  return processors.get(kind);
}

/** Kinds a worker of this process can run; it claims only these. */
export function registeredKinds(): string[] {
  return [...processors.keys()];
}

export function familyOf(kind: string): JobFamily {
  const processor = processors.get(kind);
  if (!processor) throw new Error(`no job processor is registered for kind "${kind}"`);
  return processor.family;
}
