/**
 * Copies text to the clipboard. The async Clipboard API needs a secure context and the
 * page's clipboard-write permission (Electron grants exactly that one to the app's
 * origin); false when the host refused, so the caller can offer the text to select.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
