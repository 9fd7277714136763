import { Button, Card, H1, H2, Icon, Intent, type IconName } from '@blueprintjs/core';

const FEATURES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'predictive-analysis',
    title: 'AI Agents',
    text: 'Borrower, broker and lender agents find matches and negotiate rates, terms and fees for you.',
  },
  {
    icon: 'chat',
    title: 'Real-time Communication',
    text: 'Watch agents talk to each other as it happens, every message live in your console.',
  },
  {
    icon: 'hand',
    title: 'Manual Override',
    text: 'Take control of any conversation at any moment, then hand it back to your agent.',
  },
];

/** Both calls to action go to the login route (docs/behaviour/sign-in.md). */
const login = () => window.location.assign('/api/login');

export function Landing() {
  return (
    <main className="pf-landing" id="main-content" tabIndex={-1}>
      <section className="pf-hero">
        <H1>PropertyFinance AI</H1>
        <p className="pf-tagline">
          The AI-powered property finance platform connecting borrowers, introducers and lenders through agents that match, negotiate and
          communicate automatically.
        </p>
        <Button size="large" intent={Intent.PRIMARY} text="Get Started" endIcon="arrow-right" onClick={login} />
      </section>
      <section className="pf-grid pf-grid-3">
        {FEATURES.map((feature) => (
          <Card key={feature.title} className="pf-feature-card">
            <Icon icon={feature.icon} size={28} intent={Intent.PRIMARY} />
            <H2 className="pf-h4">{feature.title}</H2>
            <p>{feature.text}</p>
          </Card>
        ))}
      </section>
      <section className="pf-cta">
        <H2 className="pf-h4">Ready to let your agents do the legwork?</H2>
        <Button size="large" intent={Intent.SUCCESS} text="Start Your Journey" onClick={login} />
      </section>
    </main>
  );
}
