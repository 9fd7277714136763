import { Link } from 'wouter';
import { Problem } from '../components/problem';

/** The 404 page (docs/behaviour/README.md): the specification's title and text, and a way back. */
export function NotFound() {
  return (
    <div className="pf-centre">
      <Problem
        level={1}
        icon="warning-sign"
        title="404 Page Not Found"
        description="Did you forget to add the page to the router?"
        action={
          <Link href="/dashboard" className="bp6-button bp6-intent-primary">
            Back to the dashboard
          </Link>
        }
      />
    </div>
  );
}
