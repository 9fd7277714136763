import { Card, Classes, H2, Icon, Switch, type IconName } from '@blueprintjs/core';
import { plural, type ConversationView, type MessageView } from '@pf/events';
import { useMemo, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '../../../components/page-header';
import { useUser } from '../../../lib/current-user';
import { ControlPanel, SideChooser } from './control-panel';
import { LiveTag } from './live-tag';
import { MatchExplanation } from './match-explanation';
import { MakeOfferForm } from './make-offer-form';
import { MessageInput } from './message-input';
import { MessageList } from './message-list';
import { ModeTag, StatusTag } from './mode-tag';
import { PresenceBar } from './presence-bar';
import { QuickActions } from './quick-actions';
import { useCollision } from './use-collision';
import { useModeSwitch } from './use-mode-switch';
import { useMayWrite } from '../../../components/writers-only';
import { useConversationEvents } from '../api/conversations';
import { statusWords } from './status-words';

function InfoCard({ icon, title, value, detail }: { icon: IconName; title: string; value: string; detail?: string }) {
  return (
    <Card className="pf-stat-card">
      <div className="pf-stat-head">
        <span>{title}</span>
        <Icon icon={icon} />
      </div>
      <div className="pf-info-value">{value}</div>
      {detail ? <div className="pf-muted pf-small">{detail}</div> : null}
    </Card>
  );
}

interface Props {
  conversation: ConversationView;
  messages: MessageView[] | undefined;
  seedButton: ReactNode;
}

/** A loaded conversation (docs/behaviour/conversations.md). */
export function ConversationScreen({ conversation, messages, seedButton }: Props) {
  const user = useUser();
  const { id: userId, sessionId, firstName, lastName } = user.data ?? {};
  const me = useMemo(
    () => ({ userId, sessionId, name: [firstName, lastName].filter(Boolean).join(' ') }),
    [userId, sessionId, firstName, lastName],
  );
  const mode = useModeSwitch(conversation, me);
  const mayWrite = useMayWrite();
  const threadRef = useRef<HTMLElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const switchRef = useRef<HTMLInputElement>(null);
  const active = conversation.status === 'active';
  // The composer is for the session holding a side (another session, or a colleague, may hold the others).
  const controlHere = mode.manual;
  const collision = useCollision(conversation, me);
  const events = useConversationEvents(conversation.id);
  return (
    <>
      <Link href="/conversations" className="pf-back">
        <Icon icon="arrow-left" /> Back
      </Link>
      <PageHeader title={conversation.title || `Conversation #${conversation.id}`} subtitle="Interactive conversation management">
        <StatusTag status={conversation.status} />
        <ModeTag manual={mode.manual} />
        <Link href={`/conversations/${conversation.id}/history`} className={`${Classes.BUTTON} ${Classes.SMALL}`}>
          <Icon icon="history" />
          <span className={Classes.BUTTON_TEXT}>History</span>
        </Link>
      </PageHeader>
      {conversation.match ? <MatchExplanation match={conversation.match} /> : null}
      <div className="pf-grid pf-grid-3">
        <InfoCard
          icon="people"
          title="Participants"
          value={plural(conversation.participants.length, 'AI agent')}
          detail={conversation.participants
            .map((p) => `${p.name}${p.isMine ? ' (yours)' : p.firmName ? ` (${p.firmName})` : ' (another firm)'}`)
            .join(' · ')}
        />
        <InfoCard icon="pulse" title="Status" value={statusWords(conversation)} />
        <InfoCard icon="hand" title="Control Mode" value={mode.manual ? 'Manual control' : 'Automatic'} />
      </div>
      <div className="pf-detail-grid pf-section">
        <Card className="pf-thread" ref={threadRef as React.Ref<HTMLDivElement>}>
          <div className="pf-thread-head">
            <H2 className="pf-h4">Conversation Thread</H2>
            <div className="pf-thread-controls">
              {/* An auditor may not take over (the API and the socket answer 403): no switch; RoleNotice says why. */}
              {mayWrite ? <SideChooser conversation={conversation} mode={mode} /> : null}
              {mayWrite ? (
                // Never disabled while switching (the machine ignores a second toggle): a disabled input drops the
                // keyboard focus to the page, and the focus stays on what changed (docs/behaviour/console-layout.md).
                <Switch
                  label="Manual Mode"
                  checked={mode.manual}
                  aria-busy={mode.switching}
                  onChange={mode.toggle}
                  inputRef={switchRef}
                  data-testid="manual-switch"
                />
              ) : null}
              <ModeTag manual={mode.manual} long />
              {active ? <LiveTag /> : null}
            </div>
          </div>
          <ControlPanel conversation={conversation} me={me} collision={collision} mayWrite={mayWrite} />
          <PresenceBar conversationId={conversation.id} />
          <MessageList conversation={conversation} messages={messages ?? []} events={events.data ?? []} />
          {controlHere && mayWrite ? <MessageInput conversation={conversation} inputRef={inputRef} /> : null}
          {controlHere && mayWrite ? <MakeOfferForm conversation={conversation} /> : null}
        </Card>
        <QuickActions
          conversation={conversation}
          messages={messages ?? []}
          threadRef={threadRef}
          inputRef={inputRef}
          onToggle={() => {
            mode.toggle();
            switchRef.current?.focus();
          }}
          seedButton={seedButton}
        />
      </div>
    </>
  );
}
