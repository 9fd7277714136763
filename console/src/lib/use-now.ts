import { useEffect, useState } from 'react';

/** The time now, read once and then again every `everyMs`: for "5 minutes ago" texts, kept out of render. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
