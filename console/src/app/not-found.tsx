import { Problem } from '../components/problem';

export function NotFound() {
  return (
    <div className="pf-centre">
      <Problem level={1} icon="warning-sign" title="404 Page Not Found" description="Did you forget to add the page to the router?" />
    </div>
  );
}
