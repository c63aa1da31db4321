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
 * the DevTools protocol (the page's CSP is not in the way, and nothing of axe stays behind).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
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
