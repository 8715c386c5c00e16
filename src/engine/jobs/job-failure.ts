/**
 * A job that failed with something to keep: a processor throws it so the job ends `failed` with
 * its cause's message as `error` and `output` as its result (an upstream provider's characters
 * already spent, which the job-status body still shows).
 */
export class JobFailure extends Error {
  constructor(
    readonly failure: unknown,
    readonly output: Record<string, unknown>,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = 'JobFailure';
  }
}
