import { Card, Icon, type IconName } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { formatDate } from '../lib/display';

export interface Figure {
  key: string;
  title: string | ReactNode;
  icon: IconName;
  /** null: not known yet (no data of that kind); shown as a dash. */
  value: string | null;
  hint?: string;
}

/** Four stat cards of a screen, each figure computed by its read model. */
export function FigureCards({ figures }: { figures: Figure[] | undefined }) {
  return (
    <div className="pf-grid pf-grid-4">
      {(figures ?? []).map((figure) => (
        <Card key={figure.key} className="pf-stat-card" data-testid={`figure-${figure.key}`}>
          <div className="pf-stat-head">
            <span>{figure.title}</span>
            <Icon icon={figure.icon} />
          </div>
          <div className="pf-stat-value">{figure.value ?? '–'}</div>
          {figure.hint ? <div className="pf-muted pf-small">{figure.hint}</div> : null}
        </Card>
      ))}
    </div>
  );
}

export const shortDate = (iso: string | null) => (iso ? formatDate(iso) : '–');
