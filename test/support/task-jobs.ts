/** Following a generation or analysis job to its end, and reading what it made, in contract tests. */
import type { TaskJob } from '../../src/core/schemas/jobs.js';
import type { Service } from '../../src/core/service.js';

/** Long-polls the job until it is completed or failed (at most `rounds` holds of 10 s). */
export async function finished(service: Service, jobId: string, rounds = 30): Promise<TaskJob> {
  for (let round = 0; round < rounds; round++) {
    const job = await service.call('jobs.status', { job_id: jobId, wait_seconds: 10 });
    if (job.status === 'completed' || job.status === 'failed') return job;
  }
  throw new Error(`job ${jobId} did not finish`);
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** An SRT time stamp (`00:00:01,250`) in seconds. */
export function srtSeconds(stamp: string): number {
  const [h, m, s] = stamp.replace(',', '.').split(':').map(Number);
  return h! * 3600 + m! * 60 + s!;
}
