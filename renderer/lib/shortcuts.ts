export type Shortcut = 'run' | 'stop';

/** The parts of a KeyboardEvent the shortcuts look at. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** Ctrl+Enter (Cmd+Enter on macOS) runs; Escape stops. */
export function shortcutOf(e: KeyPress): Shortcut | null {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) return 'run';
  if (e.key === 'Escape' && !e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey) return 'stop';
  return null;
}

/** The run shortcut as the platform writes it, for button hints. */
export function runShortcutLabel(platform: string): string {
  return /mac|iphone|ipad/i.test(platform) ? '⌘↵' : 'Ctrl+↵';
}
