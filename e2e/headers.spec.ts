import { expect, test } from '@playwright/test';
import { login, useMachine } from './support.ts';

// The Content-Security-Policy (issue 10 item 5) lets the app and the API docs work: no page reports a
// violation. (The scanning tests decode with the WebAssembly reader under the same policy.)

test('the app and /api/docs run under the security policy without a violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to load: ${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
  await useMachine(page);
  await login(page, 'admin');
  await expect(page).toHaveURL(/\/tasks$/);
  for (const path of ['/stockLookup', '/stockAdjust', '/location', '/appSettings', '/userAcct', '/userRoles', '/featureAccess']) {
    await page.goto(path);
    await expect(page.locator('#root')).not.toBeEmpty();
    await page.waitForLoadState('networkidle');
  }
  await page.goto('/api/docs/');
  await expect(page.getByText('Floorhand API').first()).toBeVisible({ timeout: 20_000 });
  expect(violations).toEqual([]);
});
