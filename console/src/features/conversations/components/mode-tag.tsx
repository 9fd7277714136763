import { capitalised } from '@pf/events';
import { Intent, Tag } from '@blueprintjs/core';

export function ModeTag({ manual, long = false }: { manual: boolean; long?: boolean }) {
  return (
    <Tag intent={manual ? Intent.WARNING : Intent.PRIMARY} minimal icon={manual ? 'hand' : 'predictive-analysis'}>
      {manual ? 'Manual' : long ? 'Automatic' : 'Auto'}
    </Tag>
  );
}

export function StatusTag({ status }: { status: string }) {
  return <Tag intent={status === 'active' ? Intent.SUCCESS : Intent.NONE}>{capitalised(status)}</Tag>;
}
