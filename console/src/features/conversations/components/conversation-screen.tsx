import { Card, H4, Icon, Switch, type IconName } from '@blueprintjs/core';
import type { ConversationView, MessageView } from '@pf/events';
import { useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '../../../components/page-header';
import { LiveTag } from './live-tag';
import { MessageInput } from './message-input';
import { MessageList } from './message-list';
import { ModeTag, StatusTag } from './mode-tag';
import { QuickActions } from './quick-actions';
import { useModeSwitch } from './use-mode-switch';

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

/** A loaded conversation (spec §2 Conversation detail). */
export function ConversationScreen({ conversation, messages, seedButton }: Props) {
  const mode = useModeSwitch(conversation);
  const threadRef = useRef<HTMLElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const active = conversation.status === 'active';
  return (
    <>
      <Link href="/conversations" className="pf-back">
        <Icon icon="arrow-left" /> Back
      </Link>
      <PageHeader title={conversation.title || `Conversation #${conversation.id}`} subtitle="Interactive conversation management">
        <StatusTag status={conversation.status} />
        <ModeTag manual={mode.manual} />
      </PageHeader>
      <div className="pf-grid pf-grid-3">
        <InfoCard
          icon="people"
          title="Participants"
          value={`${conversation.participants.length} AI Agents`}
          detail={conversation.participants.map((p) => `${p.name}${p.isMine ? ' (yours)' : ''}`).join(' · ')}
        />
        <InfoCard icon="pulse" title="Status" value={active ? 'Active conversation' : 'Completed'} />
        <InfoCard icon="hand" title="Control Mode" value={mode.manual ? 'Manual control' : 'Automatic'} />
      </div>
      <div className="pf-detail-grid pf-section">
        <Card className="pf-thread" ref={threadRef as React.Ref<HTMLDivElement>}>
          <div className="pf-thread-head">
            <H4>Conversation Thread</H4>
            <div className="pf-thread-controls">
              <Switch
                label="Manual Mode"
                checked={mode.manual}
                disabled={mode.switching}
                onChange={mode.toggle}
                data-testid="manual-switch"
              />
              <ModeTag manual={mode.manual} long />
              <LiveTag />
            </div>
          </div>
          <MessageList conversation={conversation} messages={messages ?? []} />
          {mode.manual ? <MessageInput conversation={conversation} inputRef={inputRef} /> : null}
        </Card>
        <QuickActions
          conversation={conversation}
          messages={messages ?? []}
          threadRef={threadRef}
          inputRef={inputRef}
          onToggle={mode.toggle}
          seedButton={seedButton}
        />
      </div>
    </>
  );
}
