import { Button, Card, Icon, Intent, NonIdealState, Spinner, Switch, Tab, Tabs, Tag, type IconName } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { capitalised, type NotificationPreferences, type NotificationView } from '@pf/events';
import { useState } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '../../../components/page-header';
import { relativeTime } from '../../../lib/format';
import { toastFailure } from '../../../lib/toaster';
import { usePreferences, useSavePreferences, withoutUnconnected } from '../../../lib/preferences';
import { useMarkAllRead, useMarkRead, useNotifications } from '../api/notifications';
import { formatDateTime } from '../../../lib/display';

const TYPE_ICON: Record<NotificationView['type'], IconName> = {
  deal: 'bank-account',
  agent: 'predictive-analysis',
  message: 'chat',
  system: 'cog',
};
const PRIORITY_INTENT = { high: Intent.DANGER, medium: Intent.WARNING, low: Intent.NONE } as const;

function NotificationList({ items, empty }: { items: NotificationView[]; empty: string }) {
  const markRead = useMarkRead();
  if (items.length === 0) return <NonIdealState icon="notifications" description={empty} />;
  return (
    <ul className="pf-list" data-testid="notification-list">
      {items.map((n) => (
        <li key={n.id}>
          <Card className={`pf-notification ${n.read ? '' : 'pf-unread'}`} data-testid="notification">
            <div className="pf-row-between">
              <span>
                <Icon icon={TYPE_ICON[n.type]} /> <strong>{n.title}</strong>
              </span>
              <Tag minimal intent={PRIORITY_INTENT[n.priority]}>
                {capitalised(n.priority)}
              </Tag>
            </div>
            <p>{n.link ? <Link href={n.link}>{n.message}</Link> : n.message}</p>
            <div className="pf-row-between">
              <span className="pf-muted pf-small" title={formatDateTime(n.createdAt)}>
                {relativeTime(n.createdAt)}
              </span>
              {n.read ? null : (
                <Button
                  size="small"
                  variant="minimal"
                  text="Mark as read"
                  loading={markRead.isPending && markRead.variables === n.id}
                  onClick={() => markRead.mutate(n.id)}
                />
              )}
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}

const TOGGLES: { key: keyof NotificationPreferences; label: string }[] = [
  { key: 'dealUpdates', label: 'Deal updates (deals agreed, failed or completed; documents uploaded or rejected)' },
  { key: 'agentMatches', label: 'Agent matches' },
  { key: 'messageAlerts', label: 'Message alerts (offers from other people’s agents, take-overs)' },
  { key: 'systemAlerts', label: 'System alerts (a negotiation stalled)' },
  { key: 'pushNotifications', label: 'In-app notifications (the unread count on the bell)' },
];

/**
 * The kinds a person receives; off means none are created from then on (the read model obeys the event).
 * The same record as Settings → Preferences, read and saved through the same calls, so the two agree.
 */
function NotificationSettings() {
  const current = usePreferences();
  const save = useSavePreferences();
  const [draft, setDraft] = useState<NotificationPreferences | null>(null);
  if (!current.data) return <Spinner />;
  const saved = current.data;
  const shown = draft ?? saved.notifications;
  const submit = () =>
    draft &&
    save.mutate(
      { ...saved, notifications: withoutUnconnected(draft) },
      { onSuccess: () => setDraft(null), onError: (error) => toastFailure('Failed to save notification settings', error) },
    );
  return (
    <Card>
      {TOGGLES.map((t) => (
        <Switch
          key={t.key}
          label={t.label}
          checked={shown[t.key]}
          onChange={(e) => setDraft({ ...shown, [t.key]: e.currentTarget.checked })}
        />
      ))}
      <p className="pf-muted pf-small">Market insights, the weekly digest, email and SMS: Settings → Preferences.</p>
      <Button intent={Intent.PRIMARY} text="Save Changes" disabled={!draft} loading={save.isPending} onClick={submit} />
    </Card>
  );
}

/** Notifications. */
export function NotificationsPage() {
  const list = useNotifications();
  const markAll = useMarkAllRead();
  const [tab, setTab] = useState<'all' | 'unread' | 'settings'>('all');
  const data = list.data;
  const unread = data?.summary.unread ?? 0;
  const cards: [string, string, number][] = data
    ? [
        ['unread', 'Unread', data.summary.unread],
        ['today', 'Today', data.summary.today],
        ['thisWeek', 'This Week', data.summary.thisWeek],
        ['highPriority', 'High Priority', data.summary.highPriority],
      ]
    : [];
  return (
    <>
      <PageHeader title="Notifications" subtitle={data ? `${unread} unread` : undefined}>
        <Button icon="tick" text="Mark All Read" disabled={unread === 0} loading={markAll.isPending} onClick={() => markAll.mutate()} />
        <Button icon="cog" text="Settings" onClick={() => setTab('settings')} />
      </PageHeader>
      {list.isError ? (
        <Problem icon="error" title="Could not load notifications" description={list.error.message} />
      ) : !data ? (
        <Spinner />
      ) : (
        <>
          <div className="pf-grid pf-grid-4">
            {cards.map(([key, title, value]) => (
              <Card key={key} className="pf-stat-card" data-testid={`summary-${key}`}>
                <div className="pf-stat-head">
                  <span>{title}</span>
                </div>
                <div className="pf-stat-value">{value}</div>
              </Card>
            ))}
          </div>
          <Tabs
            id="notification-tabs"
            selectedTabId={tab}
            onChange={(id) => setTab(id as typeof tab)}
            className="pf-section pf-tabs"
            renderActiveTabPanelOnly
          >
            <Tab id="all" title="All Notifications" panel={<NotificationList items={data.notifications} empty="No notifications yet." />} />
            <Tab
              id="unread"
              title={`Unread (${unread})`}
              panel={<NotificationList items={data.notifications.filter((n) => !n.read)} empty="You have read everything." />}
            />
            <Tab id="settings" title="Settings" panel={<NotificationSettings />} />
          </Tabs>
        </>
      )}
    </>
  );
}
