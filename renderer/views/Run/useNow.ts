import { useEffect, useState } from 'react';

/** A clock reading (performance.now, ms) refreshed every intervalMs while active. */
export function useNow(active: boolean, intervalMs = 250): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => setNow(performance.now()), intervalMs);
    return () => clearInterval(id);
  }, [active, intervalMs]);
  return now;
}
