const dateTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const dateTimeSeconds = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "Jan 2, 2025, 03:04 PM" in the page's time zone. */
export function formatWhen(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : dateTime.format(t);
}

/** "Jan 2, 2025, 03:04:05 PM": two runs of one minute told apart. */
export function formatWhenExact(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : dateTimeSeconds.format(t);
}

/** How long after `from` `to` was: "42 s later", "3 min 5 s later", "2 h 10 min later"; null when not after. */
export function laterText(from: string, to: string): string | null {
  const s = Math.round((Date.parse(to) - Date.parse(from)) / 1000);
  if (!(s > 0)) return null;
  if (s < 60) return `${s} s later`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s later`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min later`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h later`;
}
