import type { DoctorCheck } from '../check.js';

/**
 * The vision model video analysis sends frames to (engines started here: local commands, serve,
 * workers). A live data dir cannot analyse without one, but only analysis needs it: a warning, not
 * a failure; the sample platform has its stand-in analyst. A configuration that is set but wrong
 * fails wherever it is. Never shows the key.
 */
export const visionModelCheck: DoctorCheck = {
  id: 'vision-model',
  title: 'vision model',
  async run({ settings, platform, analysisSettings }) {
    if (settings.mode !== 'local') return { status: 'skip', summary: 'the remote service analyses with its own model', needed: false };
    const { describeAnalysisProvider } = await import('../../../engine/features/analysis/providers/provider-config.js');
    const described = describeAnalysisProvider(analysisSettings());
    if (described.state === 'configured') return { status: 'ok', summary: described.message, needed: false };
    if (described.state === 'invalid') return { status: 'fail', summary: described.message, fix: described.fix, needed: true };
    if ((await platform()) === 'live') return { status: 'warn', summary: `optional, for video analysis only: ${described.message}`, fix: described.fix, needed: false };
    return { status: 'skip', summary: described.message, fix: described.fix, needed: false };
  },
};
