/** `job <id> --watch` polls an analysis at 5 s even when the hosted body does not say it is one. */
import { expect, it } from 'vitest';
import { taskPollSeconds } from '../../../src/cli/speech/watch-task-job.js';

it('paces by the type named, then by the fields of a hosted body, else at the analysis pace', () => {
  expect(taskPollSeconds({ type: 'generation', status: 'processing' } as never)).toBe(2);
  expect(taskPollSeconds({ type: 'analysis', status: 'processing' } as never)).toBe(5);
  expect(taskPollSeconds(undefined, 'generation')).toBe(2);
  // The hosted service's body names no type.
  expect(taskPollSeconds({ job_id: 'j', status: 'processing', video_url: 'https://youtu.be/x', analysis_text: null } as never)).toBe(5);
  expect(taskPollSeconds({ job_id: 'j', status: 'processing' } as never)).toBe(5);
  expect(taskPollSeconds(undefined)).toBe(5);
});
