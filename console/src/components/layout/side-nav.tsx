import { Alignment, Button, Classes, Icon, Menu, MenuItem } from '@blueprintjs/core';
import type { CurrentUserView } from '@pf/events';
import { useLocation } from 'wouter';
import { displayName, displayRole, initials } from '../../features/auth/user-display';
import { Avatar } from '../avatar';
import { isActive, NAV_ITEMS, SYSTEM_NAV_ITEM } from './nav-items';

interface Props {
  user: CurrentUserView | undefined;
  onNavigate?: () => void;
}

/** The navigation list and user footer, shared by the desktop sidebar and the mobile drawer. */
export function SideNav({ user, onNavigate }: Props) {
  const [path, navigate] = useLocation();
  return (
    <nav className="pf-sidenav" aria-label="Main">
      <div className="pf-brand">
        <Icon icon="office" size={20} />
        <span>PropertyFinance AI</span>
      </div>
      <Menu className="pf-nav-menu">
        {[...NAV_ITEMS, ...(user?.isPlatformAdmin ? [SYSTEM_NAV_ITEM] : [])].map((item) => (
          <MenuItem
            key={item.href}
            icon={item.icon}
            text={item.label}
            href={item.href}
            active={isActive(path, item.href)}
            onClick={(event) => {
              event.preventDefault();
              navigate(item.href);
              onNavigate?.();
            }}
          />
        ))}
      </Menu>
      <div className="pf-user-footer">
        <Avatar photoId={user?.photoId} initials={initials(user)} />
        <div className="pf-user-text">
          <div className="pf-user-name">{displayName(user)}</div>
          <div className={Classes.TEXT_MUTED} data-testid="sidebar-role">
            {displayRole(user)}
          </div>
        </div>
        {/* Signing out is a POST (the server's Origin check refuses one from another site); the answer sends the page to /. */}
        <form method="post" action="/api/logout" encType="text/plain" className="pf-logout-form">
          <Button type="submit" variant="minimal" icon="log-out" aria-label="Log out" title="Log out" alignText={Alignment.CENTER} />
        </form>
      </div>
    </nav>
  );
}
