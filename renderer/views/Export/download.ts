/**
 * Saving files from the page. One path for every host: an <a download> click, which a
 * browser turns into a download and Electron into its save dialog (the session's
 * will-download default), so no extra IPC is needed.
 */

/** "nginx vs apache · c=100" -> "nginx-vs-apache-c-100"; never empty, never a path. */
export function fileSlug(name: string, fallback = 'trebuchet'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 80);
  return slug || fallback;
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own reference by now; revoking later frees the memory.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const MIME = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  text: 'text/plain;charset=utf-8',
} as const;

export function downloadText(text: string, fileName: string, type: string): void {
  downloadBlob(new Blob([text], { type }), fileName);
}
