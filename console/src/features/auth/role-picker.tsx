import { Button, Card, H1, H2, Icon, Intent, type IconName } from '@blueprintjs/core';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { takeAfterSignIn } from '../../lib/after-sign-in';
import { readRole, saveRole, type Role } from './role';

const CHOICES: { role: Role; title: string; icon: IconName; points: string[] }[] = [
  { role: 'borrower', title: 'Borrower', icon: 'home', points: ['Find suitable lenders', 'Compare rates', 'Automated negotiations'] },
  {
    role: 'introducer',
    title: 'Introducer',
    icon: 'people',
    points: ['Match clients with lenders', 'Manage introductions', 'Track commission'],
  },
  {
    role: 'lender',
    title: 'Lender',
    icon: 'bank-account',
    points: ['Receive qualified leads', 'Automated screening', 'Portfolio management'],
  },
];

/** The role picker at /auth (docs/behaviour/sign-in.md). */
export function RolePicker() {
  const [, navigate] = useLocation();
  const [chosen, setChosen] = useState<string | null>(() => readRole());
  const choose = (role: Role) => {
    saveRole(role);
    setChosen(role);
    navigate(takeAfterSignIn('/dashboard'));
  };
  return (
    <main className="pf-role-picker" id="main-content" tabIndex={-1}>
      <H1>Welcome to PropertyFinance AI</H1>
      <p className="pf-muted">No registration required: choose how you work and start exploring at once.</p>
      <p className="pf-muted">
        Protected your account with a password? <a href="/sign-in">Sign in with your password</a>
      </p>
      <div className="pf-grid pf-grid-3">
        {CHOICES.map(({ role, title, icon, points }) => (
          <Card
            key={role}
            interactive
            selected={chosen === role}
            className="pf-role-card"
            data-testid={`role-${role}`}
            onClick={() => choose(role)}
          >
            <Icon icon={icon} size={32} intent={Intent.PRIMARY} />
            <H2 className="pf-h4">{title}</H2>
            <ul>
              {points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <Button
              intent={Intent.PRIMARY}
              fill
              text="Get Started"
              onClick={(event) => {
                event.stopPropagation();
                choose(role);
              }}
            />
          </Card>
        ))}
      </div>
    </main>
  );
}
