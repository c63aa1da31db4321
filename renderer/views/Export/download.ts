/**
 * Saving files from the page. One path for every host: an <a download> click, which a
 * browser turns into a download and Electron into its save dialog (the session's
 * will-download default), so no extra IPC is needed.
 */

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
  html: 'text/html;charset=utf-8',
} as const;

export function downloadText(text: string, fileName: string, type: string): void {
  downloadBlob(new Blob([text], { type }), fileName);
}
