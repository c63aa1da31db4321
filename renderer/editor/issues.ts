import { createContext, useCallback, useContext, useMemo, useState } from 'react';

/** Which validation message a field shows, and how it tells the form it was edited. */
export interface FieldIssues {
  /** The message for a field path, once the field was touched (or a run was attempted). */
  messageFor(path: string): string | undefined;
  touch(path: string): void;
}

export const IssuesContext = createContext<FieldIssues>({
  messageFor: () => undefined,
  touch: () => undefined,
});

/**
 * A form's messages as its fields show them: a field's once it was edited, every one once
 * revealed (a run was attempted), so a blank form is not a wall of red. touched: whether
 * any field was edited yet.
 */
export function useTouchedIssues(
  messages: ReadonlyMap<string, string>,
  revealed: boolean,
): { issues: FieldIssues; touched: boolean } {
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const touch = useCallback(
    (path: string) => setTouched((prev) => (prev.has(path) ? prev : new Set(prev).add(path))),
    [],
  );
  const issues = useMemo<FieldIssues>(
    () => ({
      messageFor: (path) => (revealed || touched.has(path) ? messages.get(path) : undefined),
      touch,
    }),
    [messages, revealed, touched, touch],
  );
  return { issues, touched: touched.size > 0 };
}

export function useFieldIssue(path: string | undefined): { message: string | undefined; touch: () => void } {
  const issues = useContext(IssuesContext);
  return {
    message: path === undefined ? undefined : issues.messageFor(path),
    touch: () => {
      if (path !== undefined) issues.touch(path);
    },
  };
}
