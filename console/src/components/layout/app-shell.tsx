import { RoleNotice } from '../writers-only';
import { Button, Drawer, DrawerSize, Position } from '@blueprintjs/core';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useUser } from '../../lib/current-user';
import { isUnauthorised } from '../../lib/api-client';
import { toastError } from '../../lib/toaster';
import { USER_MESSAGES } from '@pf/events';
import { SideNav } from './side-nav';

const MenuContext = createContext<() => void>(() => undefined);

/** The menu control of the page header; shown only below the medium breakpoint, where the sidebar is hidden. */
export function MenuButton() {
  const open = useContext(MenuContext);
  return <Button className="pf-menu-button" variant="minimal" icon="menu" aria-label="Open menu" onClick={open} />;
}

/** Dashboard: the unauthorised toast, then the login route after 500 ms. */
function useLoginRedirect(error: unknown) {
  useEffect(() => {
    if (!isUnauthorised(error)) return;
    const [title, description] = USER_MESSAGES.unauthorised.split(': ');
    toastError(description ?? USER_MESSAGES.unauthorised, title);
    const timer = setTimeout(() => window.location.assign('/api/login'), 500);
    return () => clearTimeout(timer);
  }, [error]);
}

export function AppShell({ children }: { children: ReactNode }) {
  const user = useUser();
  const [drawerOpen, setDrawerOpen] = useState(false);
  useLoginRedirect(user.error);
  return (
    <MenuContext.Provider value={() => setDrawerOpen(true)}>
      <div className="pf-shell">
        <aside className="pf-sidebar" aria-label="Navigation">
          <SideNav user={user.data} />
        </aside>
        <Drawer
          isOpen={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          position={Position.LEFT}
          size={DrawerSize.SMALL}
          className="pf-drawer"
          title="Menu"
        >
          <SideNav user={user.data} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
        <main className="pf-content" id="main-content" tabIndex={-1}>
          <RoleNotice />
          {children}
        </main>
      </div>
    </MenuContext.Provider>
  );
}
