/**
 * A channel job whose platform could not be reached (offline, DNS, refused, timed out) tries again
 * a few times before it fails with that error: a dropped connection should not fail a job. The
 * platform's refusals are not retried here: its fetch already backed off and retried them.
 */
import { ServiceError } from '../../../core/errors.js';
import type { JobTiming } from '../../jobs/timing.js';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

export async function withPlatformRetries<T>(read: () => Promise<T>, timing: Pick<JobTiming, 'platformRetries' | 'platformRetryMs'>, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      const unreachable = error instanceof ServiceError && error.code === 'platform_unreachable';
      if (!unreachable || attempt >= timing.platformRetries || signal.aborted) throw error;
      await sleep(timing.platformRetryMs * 2 ** attempt, signal);
    }
  }
}
