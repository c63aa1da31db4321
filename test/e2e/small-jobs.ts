import type { AppPage } from './app-page.ts';
import { fillPlan } from './app-page.ts';

/*
 * The smallest comparison and capacity search the UI starts, for a test that needs each view
 * with results in it (the a11y and reflow tours): clicked as a person would, saved when they
 * return.
 */

/** Two servers at one URL, one level, 0.3 s cells, two repetitions, no pause; waits until it is saved. */
export async function runSmallComparison(app: AppPage, name: string, url: string): Promise<void> {
  const { page } = app;
  await page.getByTestId('tab-compare').click();
  await fillPlan(
    app,
    {
      name,
      targets: [
        { name: 'one', url },
        { name: 'two', url },
      ],
    },
    { levels: '1', seconds: 0.3, repetitions: 2, pause: 0 },
  );
  await page.getByTestId('compare-run').click();
  await page.getByTestId('comparison-saved').waitFor({ timeout: 120_000 });
}

/** One server, one step of 0.2 s at 50 req/s, a p99 goal of 1 s, no warm-up; waits until it is saved. */
export async function runOneStepCapacity(app: AppPage, url: string): Promise<void> {
  const { page } = app;
  await page.getByTestId('tab-capacity').click();
  await page.getByTestId('capacity-target-name-0').fill('one');
  await page.getByTestId('capacity-target-url-0').fill(url);
  await page.getByTestId('capacity-remove-target-1').click();
  await page.getByTestId('capacity-p99').fill('1000');
  await page.getByTestId('capacity-start-rate').fill('50');
  await page.getByTestId('capacity-max-rate').fill('50');
  await page.getByTestId('capacity-step').fill('0.2');
  await page.getByTestId('capacity-warmup').fill('0');
  await page.getByTestId('capacity-run').click();
  await page.getByTestId('capacity-saved').waitFor({ timeout: 120_000 });
}
