/**
 * Saving files from the page. One path for every host: an <a download> click, which a
 * browser turns into a download and Electron into its save dialog (the session's
 * will-download default), so no extra IPC is needed.
 */
import { bundleFiles, itemFileName, type ExportBundle, type ExportItem } from '../../shared/export/files.ts';
import { zipFiles } from '../../shared/export/zip.ts';

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

export function downloadText(text: string, fileName: string, type: string): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

/** One file of a bundle, made on the click, under the name the CLI's --export gives it. */
export function downloadItem(bundle: ExportBundle, item: ExportItem): void {
  downloadText(item.render(), itemFileName(bundle, item), item.type);
}

/** Every file of a bundle in one zip, "<base>.zip"; `date` (the result's) stamps its entries. */
export function downloadZip(bundle: ExportBundle, date: Date): void {
  const zip = zipFiles(bundleFiles(bundle), Number.isNaN(date.getTime()) ? new Date() : date);
  downloadBlob(new Blob([zip], { type: 'application/zip' }), `${bundle.base}.zip`);
}
