import './zod-config.ts';
import './styles/tokens.css';
import './styles/base.css';
import './components/buttons.css';
import './components/table.css';
import './components/badges.css';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { connectApi, onHostConnectionChange, type HostConnection, type TrebuchetApi } from './api/index.ts';
import type { AppInfo } from '../shared/contract/api.ts';
import { HostBanner } from './components/HostBanner.tsx';
import { App } from './App.tsx';
import { defaultUiSettings, type UiSettings } from '../shared/records/settings.ts';
import { errorText } from './lib/errors.ts';

/** Connects to the host, then shows the app; a lost web-host connection shows a banner. */
function Root() {
  const [api, setApi] = useState<TrebuchetApi | null>(null);
  const [settings, setSettings] = useState<UiSettings | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [connection, setConnection] = useState<HostConnection>('connected');
  const [restart, setRestart] = useState<AppInfo['restart'] | null>(null);

  useEffect(() => onHostConnectionChange(setConnection), []);
  useEffect(() => {
    connectApi().then(
      async (connected) => {
        // What the host kept (drafts, the view, columns); a host that cannot say starts the app fresh.
        const kept = await connected.settings.get().then(
          (reply) => reply.ui,
          (error: unknown) => {
            console.warn('trebuchet: the kept settings could not be read:', error);
            return defaultUiSettings();
          },
        );
        setSettings(kept);
        setApi(connected);
        // How the host starts again as it is, for the banner should it stop.
        connected.app.info().then(
          (info) => setRestart(info.restart ?? null),
          () => undefined,
        );
      },
      (e: unknown) => setFailure(errorText(e)),
    );
  }, []);

  if (failure) {
    return (
      <div className="boot boot--error" role="alert" data-testid="connect-error">
        <h1>Cannot reach the Trebuchet host</h1>
        <p>{failure}</p>
      </div>
    );
  }
  if (!api || !settings) return <div className="boot" aria-busy="true" />;
  return (
    <>
      <HostBanner state={connection} restart={restart} />
      <App api={api} settings={settings} />
    </>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
