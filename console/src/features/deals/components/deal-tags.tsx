import { Intent, Tag } from '@blueprintjs/core';
import { capitalised } from '@pf/events';
import type { DealStage, DealStatus } from '@pf/events';

const STATUS_INTENT: Record<DealStatus, Intent> = {
  active: Intent.PRIMARY,
  pending: Intent.WARNING,
  completed: Intent.SUCCESS,
  cancelled: Intent.DANGER,
};

export const DealStatusTag = ({ status }: { status: DealStatus }) => (
  <Tag intent={STATUS_INTENT[status]} minimal data-testid="deal-status">
    {capitalised(status)}
  </Tag>
);

export const DealStageTag = ({ stage }: { stage: DealStage }) => (
  <Tag minimal icon="timeline-line-chart" data-testid="deal-stage">
    {capitalised(stage)}
  </Tag>
);
