import { H1 } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { MenuButton } from './layout/app-shell';

export function PageHeader({ title, subtitle, children }: { title: ReactNode; subtitle?: ReactNode; children?: ReactNode }) {
  return (
    <header className="pf-page-header">
      <div className="pf-page-title">
        <MenuButton />
        <div>
          <H1 className="pf-page-title-text">{title}</H1>
          {subtitle ? <p className="pf-muted">{subtitle}</p> : null}
        </div>
      </div>
      {children ? <div className="pf-page-actions">{children}</div> : null}
    </header>
  );
}
