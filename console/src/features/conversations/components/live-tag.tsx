import { Intent, Tag } from '@blueprintjs/core';
import { useLiveStatus } from '../../../lib/live/live-provider';

/** Whether the thread is receiving pushes; while reconnecting it says so rather than looking frozen. */
export function LiveTag() {
  const status = useLiveStatus();
  if (status === 'open')
    return (
      <Tag minimal round intent={Intent.SUCCESS} icon="pulse">
        Live
      </Tag>
    );
  return (
    <Tag minimal round intent={Intent.WARNING}>
      {status === 'reconnecting' ? 'Reconnecting…' : 'Connecting…'}
    </Tag>
  );
}
