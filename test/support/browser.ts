/**
 * Debian's chromium driven by playwright-core (npm never downloads a browser). Without it the
 * browser suites fail in CI (CI=true, where .ci/run installs it); elsewhere they are skipped, saying why.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.TUBEKIT_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((file): file is string => Boolean(file));

export const CHROMIUM = CANDIDATES.find((file) => fs.existsSync(file)) ?? null;

if (!CHROMIUM) {
  const message = 'chromium is not installed: the dashboard\'s browser tests need it (Debian: apt-get install chromium).';
  if (process.env.CI) throw new Error(message);
  console.warn(`${message} Skipping them.`);
}

export const hasChromium = CHROMIUM !== null;

export function launchChromium(): Promise<Browser> {
  // Root (CI, containers) cannot use chromium's user-namespace sandbox.
  return chromium.launch({ executablePath: CHROMIUM!, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** Where screenshots go: TUBEKIT_TEST_ARTIFACTS, or a folder in the temporary directory (never the repository). */
export function artifactsDir(): string {
  const dir = process.env.TUBEKIT_TEST_ARTIFACTS ?? path.join(os.tmpdir(), 'tubekit-test-artifacts', 'dashboard');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** axe-core's WCAG 2 A/AA rules on the page as it is (run through the debugger protocol, which the CSP does not govern). */
export async function accessibilityViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => node.target.join(' ')) }));
  });
}
