import { useState } from 'react';

/**
 * Form state that starts from what the server last said and starts again whenever that changes (a refetch, a
 * push from another console, the dialog opening): React's "adjusting state when a prop changes", done during
 * render rather than in an effect, so the stale values are never painted.
 */
export function useStateFrom<V>(initial: () => V, from: readonly unknown[]) {
  const [values, setValues] = useState(initial);
  const [seen, setSeen] = useState(from);
  if (from.length !== seen.length || from.some((value, index) => !Object.is(value, seen[index]))) {
    setSeen(from);
    setValues(initial());
  }
  return [values, setValues] as const;
}
