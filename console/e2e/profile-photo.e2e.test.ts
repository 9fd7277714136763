import { expect, test } from '@playwright/test';
import { PNG_BYTES } from '@pf/single-node/testing/documents';

/**
 * Settings → Profile → Change Photo in real Chromium (docs/behaviour/settings.md, "Profile photo"): the server
 * judges the file by its content, so a 6 MB file and a text file named .png are refused with the reason shown,
 * and a real PNG is shown in the sidebar.
 */
test('Change Photo refuses a 6 MB file and a renamed text file with the reason, and shows a real PNG in the sidebar', async ({ page }) => {
  await page.goto('/api/login');
  await page.goto('/settings');
  await expect(page.getByText('JPG, PNG or GIF. Max size of 5MB.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change Photo' })).toBeVisible();
  const problem = page.getByTestId('photo-problem');

  const choose = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Change Photo' }).click();
    await (await chooser).setFiles(file);
  };

  // Over 5 MB, whatever it holds (a real PNG's bytes in front).
  // A real PNG (one pixel, which the server enlarges to the stored 128 × 128).
  const png = PNG_BYTES;
  await choose({ name: 'large.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024, 1)]) });
  await expect(problem).toHaveText('That file is larger than 5 MB. Choose a JPG, PNG or GIF of at most 5 MB.');

  // Words in a file named like a picture, declared as one: judged by its content.
  await choose({ name: 'holiday.png', mimeType: 'image/png', buffer: Buffer.from('These are words, not a picture.\n'.repeat(20)) });
  await expect(problem).toHaveText('That file is not a JPG, PNG or GIF image. Choose a JPG, PNG or GIF of at most 5 MB.');
  await expect(page.locator('.pf-user-footer [data-testid="avatar-photo"]')).toHaveCount(0);

  await choose({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('Photo updated: Your new photo is shown beside your name')).toBeVisible();
  await expect(problem).toHaveCount(0);
  const sidebarPhoto = page.locator('.pf-user-footer [data-testid="avatar-photo"]');
  await expect(sidebarPhoto).toHaveAttribute('src', /^\/api\/auth\/photos\/[0-9a-f-]{36}$/);
  // Drawn, not a broken image: the browser decoded the stored photo at its stored size.
  await expect.poll(() => sidebarPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(128);

  await page.reload();
  await expect.poll(() => sidebarPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(128);
  // Languages are offered by name.
  await expect(page.getByLabel('Language').locator('option')).toHaveText(['English', 'Français', 'Deutsch', 'Español']);
});
