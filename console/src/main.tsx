import '@blueprintjs/core/lib/css/blueprint.css';
import './styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startSignedIn } from './app/routes/start-signed-in';
import { loadIconsOnDemand } from './lib/icons';

loadIconsOnDemand();
startSignedIn(window.location.pathname);

// No StrictMode: its double effects would stop and restart the live socket actor, which XState does not allow.
createRoot(document.getElementById('root')!).render(<App />);
