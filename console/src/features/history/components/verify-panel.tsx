import { Button, Callout, Card, H2 } from '@blueprintjs/core';
import type { ConversationVerification } from '@pf/events';
import { useMutation } from '@tanstack/react-query';
import { downloadConversationHistory } from '../../../lib/download';
import { verifyHistory } from '../api/history';

function Verdict({ result }: { result: ConversationVerification }) {
  const events = result.streams.reduce((sum, s) => sum + s.events, 0);
  if (result.intact) {
    return (
      <Callout intent="success" icon="endorsed" data-testid="verify-result">
        <h3 className="bp6-heading pf-callout-title">Chain intact</h3>
        All {events} events in {result.streams.length} streams still hash to their chain.
      </Callout>
    );
  }
  return (
    <Callout intent="danger" icon="error" data-testid="verify-result">
      <h3 className="bp6-heading pf-callout-title">Tampering found</h3>
      {result.streams
        .filter((s) => !s.intact)
        .map((s) => (
          <p key={s.stream}>
            {s.stream}, version {s.firstBroken!.streamVersion}
            {s.firstBroken!.position ? ` (position ${s.firstBroken!.position})` : ''}: {s.firstBroken!.reason}
          </p>
        ))}
    </Callout>
  );
}

/** Recompute the hash chains now, and take the history away for an auditor. */
export function VerifyPanel({ conversationId }: { conversationId: number }) {
  const verify = useMutation({ mutationFn: () => verifyHistory(conversationId) });
  return (
    <Card>
      <H2 className="pf-h4">Tamper evidence</H2>
      <div className="pf-quick-buttons">
        <Button icon="shield" text="Verify chain" loading={verify.isPending} onClick={() => verify.mutate()} />
        <Button icon="export" text="Export history (JSON)" onClick={() => void downloadConversationHistory(conversationId, 'json')} />
        <Button icon="th" text="Export messages and offers (CSV)" onClick={() => void downloadConversationHistory(conversationId, 'csv')} />
      </div>
      {verify.data ? <Verdict result={verify.data} /> : null}
      {verify.isError ? <Callout intent="danger">{verify.error.message}</Callout> : null}
    </Card>
  );
}
