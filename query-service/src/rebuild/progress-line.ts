import type { RebuildProgress } from './live-rebuild';

const count = (n: number) => Math.round(n).toLocaleString('en-GB');

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** One line of a rebuild's progress, as `npm run rebuild` prints it and the admin endpoint returns it. */
export function progressLine(progress: RebuildProgress): string {
  switch (progress.phase) {
    case 'preparing':
      return `Preparing the rebuild of ${progress.parts.join(', ')}`;
    case 'switching':
      return `Switching to the rebuilt tables (${count(progress.done)} events folded)`;
    case 'done':
      return `Rebuilt ${progress.parts.join(', ')} from ${count(progress.done)} events (${count(progress.eventsPerSecond)} events/s)`;
    case 'building': {
      const share = progress.total > 0 ? ` (${Math.floor((100 * progress.done) / progress.total)}%)` : '';
      const left = progress.secondsLeft === null ? '' : `, about ${duration(progress.secondsLeft)} left`;
      return `${progress.resumed ? 'Resumed: ' : ''}${count(progress.done)} of ${count(progress.total)} events${share}, ${count(progress.eventsPerSecond)} events/s${left}`;
    }
  }
}
