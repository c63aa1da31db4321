import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's violations of the page as it is now, serious and critical ones. Injected over
 * the DevTools protocol (the page's CSP is not in the way), once per document: evaluating its
 * 650 KB again for each check cost 0.3 CPU-seconds a time (20 checks: 6 of a file's 22), and
 * axe.run is made to run again on the page as it has become.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const all = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(context: unknown, options: object): Promise<{ violations: AxeResult[] }>;
        };
        document: unknown;
      }
    ).axe;
    interface AxeResult {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[]; failureSummary?: string }[];
    }
    const doc = (globalThis as unknown as { document: unknown }).document;
    const r = await axe.run(doc, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  });
  return all.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
