import type { HostConnection } from '../api/index.ts';
import type { AppInfo } from '../../shared/contract/api.ts';

interface HostBannerProps {
  state: HostConnection;
  /** How the web host starts again as it was (app.info), when it said. */
  restart: AppInfo['restart'] | null;
}

/**
 * Above the views while the web host's connection is down: being tried again, or, once the
 * address says why, how to get the host back. A host restarted on its port and data folder is
 * taken back by itself (its token is kept), and its jobs the stop cut short are in History.
 */
export function HostBanner({ state, restart }: HostBannerProps) {
  if (state === 'connected') return null;
  const command = restart ? <code data-testid="host-restart-command">{restart.command}</code> : null;
  return (
    <div className="banner" role="status" data-testid="reconnecting" data-state={state}>
      {state === 'reconnecting' && <>Connection to the host lost — reconnecting…</>}
      {state === 'stopped' &&
        (restart?.samePage ? (
          <>
            The Trebuchet host stopped. Start it again with {command}: this page takes it back by itself and
            shows what the stop cut short (saved in History).
          </>
        ) : (
          <>
            The Trebuchet host stopped. Start it again{command ? <> with {command}</> : null} and open the URL
            it prints (its port was picked at random, so this page&apos;s token was not kept: start it with
            --port to have pages take it back by themselves).
          </>
        ))}
      {state === 'other-host' && (
        <>
          Another Trebuchet host answers at {window.location.host}, with another token (another data folder,
          or a port picked at random): open the URL it printed.
        </>
      )}
    </div>
  );
}
