import type { ReactNode } from 'react';
import { useScrollReach } from './useScrollReach.ts';

/** A table's box: a table wider than it scrolls sideways in it, reachable from the keyboard then. */
export function TableScroll({ children, className }: { children: ReactNode; className?: string }) {
  const ref = useScrollReach<HTMLDivElement>();
  return (
    <div ref={ref} className={`table-scroll${className ? ` ${className}` : ''}`}>
      {children}
    </div>
  );
}
