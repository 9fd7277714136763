import { Spinner, Tab, Tabs } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { usePreferences } from '../../../lib/preferences';
import { useAgentDefaults, useProfile } from '../api/settings';
import { AgentDefaultsTab } from './agent-defaults-tab';
import { ApiTokensTab } from './api-tokens-tab';
import { BillingTab } from './billing-tab';
import { MembersTab } from './members-tab';
import { PreferencesTab } from './preferences-tab';
import { ProfileTab } from './profile-tab';
import { SecurityTab } from './security-tab';

function Loaded<T>({ query, children }: { query: { data: T | undefined; error: unknown }; children: (data: T) => React.ReactNode }) {
  if (query.error)
    return <Problem level={1} icon="error" title="Could not load your settings" description={String((query.error as Error).message)} />;
  return query.data === undefined ? <Spinner /> : <>{children(query.data)}</>;
}

/** Settings (docs/behaviour/settings.md): five tabs, each saved on its own. */
export function SettingsPage() {
  const [tab, setTab] = useState<string>('profile');
  const profile = useProfile();
  const preferences = usePreferences();
  const defaults = useAgentDefaults();
  return (
    <>
      <PageHeader title="Settings" subtitle="Manage your account, preferences and security" />
      <Tabs
        id="settings"
        className="pf-settings-tabs"
        selectedTabId={tab}
        onChange={(id) => setTab(String(id))}
        large
        renderActiveTabPanelOnly
      >
        <Tab id="profile" title="Profile" panel={<Loaded query={profile}>{(data) => <ProfileTab profile={data} />}</Loaded>} />
        <Tab
          id="preferences"
          title="Preferences"
          panel={<Loaded query={preferences}>{(data) => <PreferencesTab preferences={data} />}</Loaded>}
        />
        <Tab
          id="agent-defaults"
          title="Agent Defaults"
          panel={<Loaded query={defaults}>{(data) => <AgentDefaultsTab defaults={data} />}</Loaded>}
        />
        <Tab id="security" title="Security" panel={<SecurityTab />} />
        <Tab id="members" title="Members" panel={<MembersTab />} />
        <Tab id="billing" title="Billing" panel={<BillingTab />} />
        <Tab id="api-tokens" title="API tokens" panel={<ApiTokensTab />} />
      </Tabs>
    </>
  );
}
