import type { Page } from '@playwright/test';

/**
 * Every Content-Security-Policy violation in `page` from now on, as lines to read in a failed
 * test: the `securitypolicyviolation` events (directive, what was blocked, the element) while
 * scripts run, and Chromium's console errors about the policy, which it writes with JavaScript
 * off too. The list fills as the page is used; expect it to stay empty.
 */
export async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      violations.push(`${page.url()}: console: ${message.text()}`);
    }
  });
  await page.exposeFunction('reportCspViolationToTest', (line: string) => {
    violations.push(line);
  });
  await page.addInitScript(() => {
    const report = (window as unknown as { reportCspViolationToTest: (line: string) => void })
      .reportCspViolationToTest;
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const element =
          event.target instanceof Element ? event.target.outerHTML.slice(0, 200) : 'document';
        report(
          `${location.pathname}: ${event.effectiveDirective} refused ${event.blockedURI || 'inline'}` +
            ` (${event.sourceFile}:${String(event.lineNumber)}) on ${element}`,
        );
      },
      true,
    );
  });
  return violations;
}
