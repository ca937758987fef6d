import { expect, test } from '@playwright/test';
import {
  byteBudgetChecks,
  get,
  kilobytes,
  measurePage,
  planVisits,
} from '../../bench/page-weight.ts';
import { stylesheetReferencesOf } from '../../bench/page-references.ts';
import { member } from './support/journeys';
import { prepareDemo } from '../../bench/demo-visitors.ts';

/**
 * The byte budgets of docs/PRODUCT.md §14 for every page of the route table in every state, on
 * the production build these tests serve: sizes only, never times (those are `npm run bench`'s).
 * One test, so that the demo visitors sign in once: every page and figure over its budget is
 * reported, not only the first. A page before sign-in waits for no stylesheet and fetches the
 * signed-in pages' one ahead; a signed-in page waits for that one alone.
 */
test('every page of the route table, in every state, keeps its byte budgets, waits for no stylesheet but the one fetched ahead and names every module its scripts need', async ({
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('The browser tests have no baseURL');
  const demo = await prepareDemo(baseURL, member.password);
  const { visits } = planVisits();
  const dashboard = await get(new URL('/dashboard', baseURL).href, demo.cookies.member);
  const memberStylesheets = stylesheetReferencesOf(dashboard.body);
  expect(memberStylesheets, 'the stylesheet the Dashboard links').toEqual([
    expect.stringMatching(/^\/_astro\/member\.[\w-]+\.css$/),
  ]);

  for (const visit of visits) {
    const path = visit.path(demo);
    await test.step(`${visit.route} (${visit.state}): ${path}`, async () => {
      const weight = await measurePage(baseURL, path, demo.cookies[visit.visitor]);
      expect
        .soft(weight.status, `${visit.route} (${visit.state}) answers ${path} with its page`)
        .toBe(visit.status);
      expect
        .soft(
          weight.styles.renderBlocking,
          `${visit.route} (${visit.state}): stylesheets it waits for`,
        )
        .toEqual(visit.signedInPage ? memberStylesheets : []);
      if (!visit.signedInPage && visit.route !== 'KitGallery') {
        expect
          .soft(
            weight.styles.prefetched,
            `${visit.route} (${visit.state}): stylesheets it fetches ahead`,
          )
          .toEqual(memberStylesheets);
      }
      expect
        .soft(
          weight.styles.undefinedCustomProperties,
          `${visit.route} (${visit.state}): custom properties its styles use and never define`,
        )
        .toEqual([]);
      for (const check of byteBudgetChecks(visit, weight)) {
        const figure = check.figure.startsWith('text responses')
          ? `${check.figure}: ${weight.uncompressed.join(', ')}`
          : check.figure === 'modules found late'
            ? `${check.figure}: ${weight.modulesFoundLate.join(', ')}`
            : `${check.figure} ${kilobytes(check.value)}, budget ${kilobytes(check.budget)}`;
        expect
          .soft(check.value, `${visit.route} (${visit.state}): ${figure}`)
          .toBeLessThanOrEqual(check.budget);
      }
    });
  }
});
