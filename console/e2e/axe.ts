import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe-core's results for the page once nothing on it is moving, every rule axe runs by default. A dialog fades in
 * (Blueprint's overlay transition) and axe measures colours as they stand: mid-fade, the text of a half-transparent
 * dialog measures below the contrast it has once shown. So this first waits until no element is in a transition's
 * enter or exit state and no animation with an end is running (a spinner's endless one does not count).
 */
export async function axeResults(page: Page) {
  await page.waitForFunction(() => {
    const moving = /-(enter|exit)(-active)?$/;
    for (const element of document.querySelectorAll('[class]')) {
      for (const name of element.classList) if (moving.test(name)) return false;
    }
    return document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity);
  });
  return new AxeBuilder({ page }).analyze();
}
