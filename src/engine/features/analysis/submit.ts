/**
 * `POST /api/analyze-video`: resolves the link, checks the caller's concurrency cap and queues the
 * job in one transaction, and answers at once. Free during preview: no credits, no plan needed.
 */
import { randomUUID } from 'node:crypto';
import { tooManyRequests } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import type { JobRow } from '../../jobs/job-row.js';
import { planDisplayName } from '../../limits/plans.js';
import { durationFor, workDuration } from '../../simulated-work.js';
import type { Settings } from '../../store/settings.js';
import { knownDuration, resolveVideoLink } from '../video-link.js';
import { ANALYSIS_KIND, type AnalysisInput } from './analysis-job.js';
import { analysisUploads } from './uploads.js';
import type { Executor } from '../../store/store.js';

type InFlight = Pick<JobRow, 'public_id' | 'state' | 'claimed_at' | 'input'>;

/** The user's analyses waiting or running, oldest first. */
function inFlightAnalyses(on: Executor, userId: number): Promise<InFlight[]> {
  return on.all<InFlight>(
    `SELECT public_id, state, claimed_at, input FROM jobs
     WHERE user_id = ? AND kind = '${ANALYSIS_KIND}' AND state IN ('pending', 'processing') ORDER BY id`,
    [userId],
  );
}

export async function submitAnalysis(request: RequestContext, input: ParsedInput<'analysis.submit'>): Promise<RouteOutput<'analysis.submit'>> {
  const { engine, user, limits } = request;
  const video = await resolveVideoLink(engine, input.video_url);
  const job: AnalysisInput = {
    video_url: input.video_url,
    video_id: video.video_id,
    title: video.title,
    prompt: input.prompt,
    media_resolution: input.media_resolution,
    cached: await analysisUploads(engine).reusable(user.userId, video.video_id, input.media_resolution),
  };
  const { row } = await engine.jobs.enqueue({
    kind: ANALYSIS_KIND,
    userId: user.userId,
    // A UUID, as the hosted service's ids (earlier `ana_…` ids in a data dir still answer).
    publicId: randomUUID(),
    input: job,
    // In the insert's transaction, so concurrent submits (several processes) cannot both pass.
    beforeInsert: async (tx) => {
      // The cap's lock: two machines submitting at once count one after the other.
      await tx.lock(`analysis:user:${user.userId}`);
      const running = await inFlightAnalyses(tx, user.userId);
      if (running.length < limits.analysisConcurrency) return;
      const cap = limits.analysisConcurrency;
      throw tooManyRequests(
        `Video analysis: ${running.length} of your analyses are already waiting or running, as many as ${user.plan === 'none' ? 'a key without a plan' : `the ${planDisplayName[user.plan]} plan`} allows at once (${cap}).`,
        secondsUntilOneFinishes(running, engine.settings, engine.clock.now()),
        'rate_limited',
        'Wait for one to finish (tubekit job <job_id> --watch), or upgrade the plan to run more at once.',
      );
    },
  });
  return { success: true, job_id: row.public_id!, status: 'pending', cached: job.cached, credits_charged: 0, duration_seconds: knownDuration(video) };
}

/** When the soonest of the running analyses should end, from the simulated durations of its steps. */
function secondsUntilOneFinishes(running: InFlight[], settings: Settings, now: number): number {
  const remaining = running.map((row) => {
    const id = row.public_id!;
    const cached = (JSON.parse(row.input) as AnalysisInput).cached;
    const work = (cached ? 0 : durationFor(id, workDuration(settings, 'analysis-upload'))) + durationFor(id, workDuration(settings, 'analysis'));
    return row.state === 'processing' && row.claimed_at !== null ? row.claimed_at + work - now : work;
  });
  return Math.max(1, Math.ceil(Math.min(...remaining) / 1000));
}
