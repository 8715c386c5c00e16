/** `POST /api/generate-simple`: checks everything up front, queues the job, answers at once. */
import { randomUUID } from 'node:crypto';
import { badRequest } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import { planDisplayName } from '../../limits/plans.js';
import { requireVoicePlan } from '../access.js';
import { GENERATION_KIND, type GenerationInput } from './generation-job.js';
import { speechOrderFor } from './speech-orders.js';

const RATE_WINDOW_MS = 60_000;
const TITLE_FROM_SCRIPT_CHARACTERS = 60;

export async function submitGeneration(request: RequestContext, input: ParsedInput<'generate'>): Promise<RouteOutput<'generate'>> {
  requireVoicePlan(request);
  checkScriptLength(request, input.script);
  const job: GenerationInput = {
    script: input.script,
    title: input.custom_title ?? titleFromScript(input.script),
    provider: input.provider,
    voice_id: input.voice_id,
    ...(await speechOrderFor(request, input)),
  };
  const { engine, user, limits } = request;
  const { row } = await engine.jobs.enqueue({
    kind: GENERATION_KIND,
    userId: user.userId,
    // A UUID, as the hosted service's ids (earlier `gen_…` ids in a data dir still answer).
    publicId: randomUUID(),
    input: job,
    // Counted in the insert's transaction: a refused request does not use up the caller's minute.
    beforeInsert: (tx) =>
      engine.rates.take(user.userId, 'generate', limits.generatePerMinute, RATE_WINDOW_MS, `${limits.generatePerMinute} requests/min`, {}, tx),
  });
  return { success: true, job_id: row.public_id!, status: 'pending' };
}

/** Characters as people count them (code points), against the plan's maximum. */
function checkScriptLength(request: RequestContext, script: string): void {
  const length = [...script].length;
  const max = request.limits.maxScriptCharacters;
  if (length > max) {
    throw badRequest(
      `Invalid request: script: is ${length.toLocaleString('en-US')} characters long; the ${planDisplayName[request.user.plan]} plan allows at most ${max.toLocaleString('en-US')} per generation.`,
      'Split the script into several generations, or upgrade the plan.',
    );
  }
}

function titleFromScript(script: string): string {
  const line = script.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= TITLE_FROM_SCRIPT_CHARACTERS ? line : `${chars.slice(0, TITLE_FROM_SCRIPT_CHARACTERS - 1).join('').trimEnd()}…`;
}
