import { useEffect, useMemo, useRef } from 'react';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { TrebuchetApi } from '../../shared/contract/api.ts';
import type { UiSettings } from '../../shared/records/settings.ts';
import { keptSettings, type PageSettings, type UiNow } from './keptSettings.ts';
import type { useWorkDrafts } from './useWorkDrafts.ts';

/** The page's part of the settings, and its text (what was sent last). */
function keptOf({ metrics: _theirs, ...settings }: UiSettings): { settings: PageSettings; text: string } {
  return { settings, text: JSON.stringify(settings) };
}

/** How long the page rests before its settings are sent: typing changes a draft at every key. */
const SAVE_SETTINGS_DELAY_MS = 400;

/**
 * Sends the page's settings to the host once they have rested a moment, and at once when the
 * page is hidden (a reload, a closed tab). Unchanged settings are not sent; a refusal (the
 * drafts past the size bound) is logged and the host keeps what it had.
 */
export function useSettingsSaver(
  api: TrebuchetApi,
  now: UiNow,
  started: UiSettings,
  delayMs = SAVE_SETTINGS_DELAY_MS,
): void {
  const kept = useRef(keptOf(started));
  const pending = useRef<(() => void) | null>(null);
  // A draft saved, opened or run is one event, not typing: it is sent at once, so a reload
  // right after a preset is saved does not restore the draft as still unsaved.
  const editedNow = Object.values(now.drafts)
    .map((d) => d.edited)
    .join();
  const editedSent = useRef(editedNow);

  useEffect(() => {
    const send = () => {
      pending.current = null;
      const next = keptSettings(now, kept.current.settings);
      const text = JSON.stringify(next);
      if (text === kept.current.text) return;
      kept.current = { settings: next, text };
      api.settings
        .set({ ui: next })
        .catch((error: unknown) => console.warn('trebuchet: the settings were not kept:', error));
    };
    if (editedNow !== editedSent.current) {
      editedSent.current = editedNow;
      send();
      return;
    }
    pending.current = send;
    const timer = setTimeout(send, delayMs);
    return () => clearTimeout(timer);
  }, [api, now, delayMs, editedNow]);

  useEffect(() => {
    const flush = () => pending.current?.();
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, []);
}

/** Keeps the page's view, drafts (the Run draft's scenario when it validates) and column choice. */
export function useKeptSettings(
  api: TrebuchetApi,
  started: UiSettings,
  page: { view: UiSettings['view']; run: Scenario | null; work: ReturnType<typeof useWorkDrafts> },
): void {
  const { view, run, work } = page;
  const columns = work.columnChoice.columns;
  const runEdited = work.run.edited;
  const { content: planContent, edited: planEdited } = work.plan;
  const { content: capacityContent, edited: capacityEdited } = work.capacity;
  const now: UiNow = useMemo(
    () => ({
      view,
      matrixColumns: columns,
      drafts: {
        run: { content: run, edited: runEdited },
        compare: { content: planContent, edited: planEdited },
        capacity: { content: capacityContent, edited: capacityEdited },
      },
    }),
    [view, columns, run, runEdited, planContent, planEdited, capacityContent, capacityEdited],
  );
  useSettingsSaver(api, now, started);
}
