import type { ReactNode } from 'react';
import './Alert.css';

interface AlertProps {
  /** error: announced at once (role alert); warn and ok: announced politely (role status). */
  tone: 'error' | 'warn' | 'ok';
  testId?: string;
  className?: string;
  /** What to say; nothing (null, false, '') renders no box at all. */
  children: ReactNode;
}

/** A message box above the content it is about. */
export function Alert({ tone, testId, className, children }: AlertProps) {
  if (children === null || children === undefined || children === false || children === '') return null;
  return (
    <div
      className={`alert alert--${tone}${className ? ` ${className}` : ''}`}
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
