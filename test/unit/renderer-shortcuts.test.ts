import { describe, expect, it } from 'vitest';
import { runShortcutLabel, shortcutOf, type KeyPress } from '../../renderer/lib/shortcuts.ts';

const key = (k: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('run and stop shortcuts', () => {
  it('runs on Ctrl+Enter or Cmd+Enter and stops on a bare Escape', () => {
    expect(shortcutOf(key('Enter', { ctrlKey: true }))).toBe('run');
    expect(shortcutOf(key('Enter', { metaKey: true }))).toBe('run');
    expect(shortcutOf(key('Escape'))).toBe('stop');
  });

  it('ignores plain Enter and chords with other modifiers', () => {
    expect(shortcutOf(key('Enter'))).toBeNull();
    expect(shortcutOf(key('Enter', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(shortcutOf(key('Escape', { ctrlKey: true }))).toBeNull();
    expect(shortcutOf(key('r', { ctrlKey: true }))).toBeNull();
  });

  it('labels the run key per platform', () => {
    expect(runShortcutLabel('MacIntel')).toBe('⌘↵');
    expect(runShortcutLabel('Linux x86_64')).toBe('Ctrl+↵');
  });
});
