import { createContext, useContext } from 'react';

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

export function useFieldIssue(path: string | undefined): { message: string | undefined; touch: () => void } {
  const issues = useContext(IssuesContext);
  return {
    message: path === undefined ? undefined : issues.messageFor(path),
    touch: () => {
      if (path !== undefined) issues.touch(path);
    },
  };
}
