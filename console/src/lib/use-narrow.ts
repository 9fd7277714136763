import { useSyncExternalStore } from 'react';

/** Below the medium breakpoint (the phone layout of styles.css: no sidebar, one column). */
const PHONE = '(max-width: 767px)';

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/** Whether the screen is phone-sized, kept in step as the window is resized. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(PHONE).matches);
}
