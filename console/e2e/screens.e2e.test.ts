import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/**
 * Every route at desktop and phone size: a screenshot of each (artefacts under test-results/), and the layout
 * must hold: nothing wider than the viewport, the sidebar on desktop and the menu button on the phone.
 */
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const SIGNED_IN_ROUTES: [string, string][] = [
  ['dashboard', '/dashboard'],
  ['agents', '/agents'],
  ['conversations', '/conversations'],
  ['deals', '/deals'],
  ['documents', '/documents'],
  ['matching', '/matching'],
  ['analytics', '/analytics'],
  ['market', '/market'],
  ['notifications', '/notifications'],
  ['settings', '/settings'],
  ['conversation-invalid', '/conversations/abc'],
  ['conversation-missing', '/conversations/999999'],
];

async function holdsLayout(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'page is wider than the viewport').toBeLessThanOrEqual(0);
}

async function shoot(page: Page, name: string, size: string) {
  await page.waitForLoadState('networkidle');
  await holdsLayout(page);
  await page.screenshot({ path: path.join(test.info().project.outputDir, 'screenshots', `${name}-${size}.png`), fullPage: true });
}

for (const size of SIZES) {
  test.describe(`${size.name} ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('every route renders and fits', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Start Your Journey' })).toBeVisible();
      await shoot(page, 'landing', size.name);

      await page.goto('/no-such-page');
      await expect(page.getByText('404 Page Not Found')).toBeVisible();
      await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
      await shoot(page, 'not-found', size.name);

      await page.goto('/api/login');
      await expect(page.getByRole('heading', { name: 'Welcome to PropertyFinance AI' })).toBeVisible();
      await shoot(page, 'auth', size.name);

      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Seed Demo Data' }).click();
      await expect(page.getByText('Demo data created successfully')).toBeVisible();
      await expect(page.getByText('Loading...')).toBeHidden();

      const sidebar = page.locator('.pf-sidebar');
      const menuButton = page.getByRole('button', { name: 'Open menu' });
      if (size.name === 'desktop') {
        await expect(sidebar).toBeVisible();
        await expect(menuButton).toBeHidden();
      } else {
        await expect(sidebar).toBeHidden();
        await menuButton.click();
        const drawer = page.locator('.pf-drawer');
        await expect(drawer.getByRole('menuitem')).toHaveCount(10);
        await shoot(page, 'drawer', size.name);
        await drawer.getByRole('menuitem', { name: 'My Agents' }).click();
        await expect(page).toHaveURL(/\/agents$/);
        await expect(drawer).toBeHidden();
      }

      for (const [name, path] of SIGNED_IN_ROUTES) {
        await page.goto(path);
        await expect(page.locator('.pf-content')).toBeVisible();
        await expect(page.locator('.pf-page-spinner')).toHaveCount(0);
        await shoot(page, name, size.name);
      }

      await page.goto('/conversations');
      await page.getByTestId('conversation-card').first().click();
      await expect(page.getByRole('heading', { name: 'Conversation Thread' })).toBeVisible();
      await expect(page.getByTestId('message').first()).toBeVisible();
      await shoot(page, 'conversation', size.name);
    });
  });
}
