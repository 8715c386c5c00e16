/**
 * The "subscription settings" a download 429 links to. The embedded engine has no account site,
 * so it keeps a small page among its served files — `<serve address>/cdn/settings/subscription.html`
 * through serve, a file:// URL in process, under `cdn_base_url` when one is set — listing each
 * plan's download caps as this engine has them, and how to use another plan locally.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RequestContext } from '../../context.js';
import { PLANS, planDisplayName } from '../../limits/plans.js';
import { cdnDir } from '../../paths.js';
import { writeFileAtomic } from '../../store/atomic-file.js';
import { publicFileUrl } from '../public-url.js';

export const SUBSCRIPTION_PAGE = 'settings/subscription.html';

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function page(request: RequestContext): string {
  const rows = PLANS.filter((plan) => plan !== 'none').map((plan) => {
    const limits = request.engine.planLimits(plan);
    const hourly = limits.downloadsPerHour === null ? 'unlimited' : String(limits.downloadsPerHour);
    return `<tr><td>${escapeHtml(planDisplayName[plan])}</td><td>${hourly}</td><td>${limits.parallelDownloads}</td></tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Subscription settings</title></head>
<body>
<h1>Subscription settings</h1>
<p>Download caps of each plan on this engine (per user, whichever key it uses):</p>
<table border="1" cellpadding="4">
<tr><th>Plan</th><th>Downloads per hour</th><th>Parallel downloads</th></tr>
${rows.join('\n')}
</table>
<p>The embedded engine changes plans through keys: <code>tubekit engine keys create --plan professional --scope generations</code>
makes a key of a Professional user. <code>tubekit engine limits set &lt;plan&gt; downloadsPerHour &lt;n&gt;</code> changes a cap.</p>
</body></html>
`;
}

/** The page's URL for this caller, writing the page first when it is missing or out of date. */
export function subscriptionSettingsUrl(request: RequestContext): string {
  const file = path.join(cdnDir(request.engine.filesDir), SUBSCRIPTION_PAGE);
  const content = page(request);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (current !== content) writeFileAtomic(file, content, request.engine.settings);
  return publicFileUrl(request, SUBSCRIPTION_PAGE);
}
