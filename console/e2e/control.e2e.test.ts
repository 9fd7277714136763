import { expect, test } from '@playwright/test';
import { openSeededConversation } from './steps';

test('two sessions of one account take over at once: exactly one has control, the other is told who has it, asks, and is handed it', async ({
  page,
  context,
  browser,
}) => {
  const id = await openSeededConversation(page);
  expect((await page.request.put('/api/auth/profile', { data: { firstName: 'Carys', lastName: 'Pennant' } })).status()).toBe(200);
  await page.reload();
  const device = (await context.cookies()).find((cookie) => cookie.name === 'pf_device')!;
  const elsewhere = await browser.newContext();
  await elsewhere.addCookies([device]);
  const second = await elsewhere.newPage();
  await second.goto('/api/login');
  await second.goto(`/conversations/${id}`);
  await expect(second.getByTestId('control-panel')).toContainText('Your side');
  await expect(page.getByTestId('control-panel')).toContainText('Automatic');
  // Each session sees the other one viewing: the same account, elsewhere.
  for (const p of [page, second]) await expect(p.getByTestId('presence-viewers')).toHaveText('You (another session) are viewing');

  // At once: both switches clicked in the same moment, before either page can be pushed the other's takeover.
  // (Playwright's click waits for each element to be stable first; that gap is longer than a takeover's push
  // takes now, and a session that sees its side already taken over toggles it back instead.)
  const manualSwitch = (p: typeof page) => p.getByText('Manual Mode', { exact: true });
  const switches = await Promise.all([manualSwitch(page).elementHandle(), manualSwitch(second).elementHandle()]);
  await Promise.all(switches.map((handle) => handle.evaluate((element) => (element as HTMLElement).click())));
  const composer = (p: typeof page) => p.getByPlaceholder('Type your message as your agent…');
  await expect.poll(async () => (await composer(page).count()) + (await composer(second).count())).toBe(1);
  const [winner, loser] = (await composer(page).count()) === 1 ? [page, second] : [second, page];
  await expect(winner.getByTestId('control-panel')).toContainText('Taken over by you, here');
  // The loser is told who has control, and where: the account's name, in another session.
  await expect(
    loser.getByText('Carys Pennant took control of your side in another session a moment earlier; request control there'),
  ).toBeVisible();
  await expect(loser.getByTestId('control-panel')).toContainText('Taken over by you, in another session (Carys Pennant)');
  await expect(loser.getByTestId('control-elsewhere')).toContainText(
    'You have control of your side in another session (signed in as Carys Pennant)',
  );

  // The loser asks; the holder is told live and hands over with one click; the asking session then has control.
  await expect(winner.getByTestId('control-request')).toHaveCount(0);
  await loser.getByRole('button', { name: 'Request control' }).click();
  await expect(loser.getByTestId('control-requested')).toHaveText('Control requested: waiting for the other session to hand over.');
  await expect(winner.getByTestId('control-request')).toContainText('Carys Pennant asks for control of your side from another session.');
  await winner.getByRole('button', { name: 'Hand over' }).click();
  await expect(loser.getByTestId('control-panel')).toContainText('Taken over by you, here');
  await expect(composer(loser)).toHaveCount(1);
  await expect(winner.getByTestId('control-panel')).toContainText('Taken over by you, in another session (Carys Pennant)');
  await expect(composer(winner)).toHaveCount(0);
  await expect(winner.getByTestId('control-request')).toHaveCount(0);

  // The new holder speaks; the one who handed over sees it, and who is typing, live.
  await composer(loser).pressSequentially('Taking it from here', { delay: 40 });
  await expect(winner.getByTestId('presence-typers')).toContainText('You (another session) are typing…');
  await composer(loser).press('Enter');
  await expect(winner.getByTestId('message').filter({ hasText: 'Taking it from here' })).toContainText('Person');
  await elsewhere.close();
});
