import { Button } from '@blueprintjs/core';
import { Problem } from '../components/problem';
import { Component, type ReactNode } from 'react';

/** A screen that fails to render shows why, inline, with a way out (druid: the main error as a NonIdealState). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Problem
        level={1}
        icon="error"
        title="Something went wrong"
        description={this.state.error.message}
        action={<Button icon="refresh" text="Reload" onClick={() => window.location.reload()} />}
      />
    );
  }
}
