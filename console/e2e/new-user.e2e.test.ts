import { expect, test } from '@playwright/test';
import { openSeededConversation } from './steps';

test('a new user signs in, seeds demo data and takes over a conversation, seen live by a second window', async ({
  page,
  browser,
  context,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'PropertyFinance AI' })).toBeVisible();
  await page.getByRole('button', { name: 'Get Started' }).click();

  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('heading', { name: 'Welcome to PropertyFinance AI' })).toBeVisible();
  await page.getByTestId('role-borrower').getByRole('button', { name: 'Get Started' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  expect(await page.evaluate(() => localStorage.getItem('user-role'))).toBe('borrower');
  // The chosen perspective beside the firm role; the badge and the sidebar name the role in the same words.
  await expect(page.getByTestId('perspective-badge')).toHaveText('Borrower perspective');
  await expect(page.getByTestId('role-badge')).toHaveText('Admin');
  await expect(page.getByTestId('sidebar-role')).toHaveText('Admin');
  await expect(page.getByText('Guest Operator')).toBeVisible();
  await expect(page.getByText('No agents yet')).toBeVisible();

  await page.getByRole('button', { name: 'Seed Demo Data' }).click();
  await expect(page.getByText('Demo data created successfully')).toBeVisible();
  await expect(page.getByText('No agents yet')).toBeHidden();
  await expect(page.getByTestId('stat-activeAgents')).not.toContainText(/^Active Agents0/);

  await page.getByRole('menuitem', { name: 'Conversations' }).click();
  await expect(page).toHaveURL(/\/conversations$/);
  const firstCard = page.getByTestId('conversation-card').first();
  await expect(firstCard).toBeVisible();
  await firstCard.getByRole('button', { name: 'View Full' }).click();
  await expect(page).toHaveURL(/\/conversations\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Conversation Thread' })).toBeVisible();
  await expect(page.getByTestId('message').first()).toBeVisible();
  const conversationUrl = page.url();

  // A second window signed in as the same user (the same session cookie), watching the same conversation.
  const other = await browser.newContext();
  await other.addCookies(await context.cookies());
  const watcher = await other.newPage();
  await watcher.goto(conversationUrl);
  await expect(watcher.getByRole('heading', { name: 'Conversation Thread' })).toBeVisible();
  await expect(watcher.getByText('Automatic', { exact: true }).first()).toBeVisible();

  await page.getByText('Manual Mode', { exact: true }).click();
  await expect(page.getByText('Manual control')).toBeVisible();
  await expect(page.getByText('Mode Updated: Switched to manual mode')).toBeVisible();
  const input = page.getByRole('textbox', { name: 'Message' });
  await expect(input).toBeVisible();

  // The watcher's screen changes without a reload.
  await expect(watcher.getByText('Manual control')).toBeVisible();
  await expect(watcher.getByRole('textbox', { name: 'Message' })).toBeVisible();

  const text = `Could we settle at 4.1% over 25 years? (${Date.now()})`;
  await input.fill(text);
  await input.press('Enter');
  const sent = page.getByTestId('message').filter({ hasText: text });
  await expect(sent, errors.join('\n')).toBeVisible();
  await expect(sent.getByText('Person')).toBeVisible();
  await expect(input).toHaveValue('');

  const received = watcher.getByTestId('message').filter({ hasText: text });
  await expect(received).toBeVisible();
  await expect(received.getByText('Person')).toBeVisible();
  await other.close();
});

test('the send button stays disabled for blank text', async ({ page }) => {
  await openSeededConversation(page);
  await page.getByText('Manual Mode', { exact: true }).click();
  await expect(page.getByText('Manual control')).toBeVisible();
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await expect(send).toBeDisabled();
  await page.getByRole('textbox', { name: 'Message' }).fill('   ');
  await expect(send).toBeDisabled();
});
