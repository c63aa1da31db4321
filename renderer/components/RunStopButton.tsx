import { PlayIcon, StopIcon } from './icons.tsx';

interface RunStopButtonProps {
  /** Something runs: the button stops it. */
  active: boolean;
  /** Stop was pressed and the host is winding down. */
  stopping: boolean;
  onRun: () => void;
  onStop: () => void;
  runLabel: string;
  canRun?: boolean;
  testIds: { run: string; stop: string };
  /** Keyboard shortcuts to show on the button. */
  keys?: { run: string; stop: string };
}

/** Run while idle, Stop while something runs ("Stopping…" once pressed). */
export function RunStopButton(props: RunStopButtonProps) {
  const { active, stopping, keys } = props;
  if (active) {
    return (
      <button
        type="button"
        className="btn btn--stop"
        disabled={stopping}
        data-testid={props.testIds.stop}
        aria-keyshortcuts={keys ? 'Escape' : undefined}
        onClick={props.onStop}
      >
        <StopIcon />
        {stopping ? 'Stopping…' : 'Stop'}
        {keys && <kbd>{keys.stop}</kbd>}
      </button>
    );
  }
  return (
    <button
      type="button"
      className="btn btn--run"
      disabled={props.canRun === false}
      data-testid={props.testIds.run}
      aria-keyshortcuts={keys ? 'Control+Enter Meta+Enter' : undefined}
      onClick={props.onRun}
    >
      <PlayIcon />
      {props.runLabel}
      {keys && <kbd>{keys.run}</kbd>}
    </button>
  );
}
