/**
 * Files a person picks in the browser (a request body, a CA file): the web host reads none
 * of its machine's files for a page (electron/host/file-rule.ts), so the page reads the
 * picked file and sends its content with the scenario, bounded like a message to the host.
 */
import { LIMITS } from '../../shared/model/defaults.ts';
import type { Body, TlsOptions } from '../../shared/model/scenario.ts';
import { formatBytes } from '../../shared/figures/units.ts';

/** A body file picked in the browser: its name and bytes (base64), and their count for the screen. */
export interface PickedBody {
  name: string;
  data: string;
  bytes: number;
}

/** A CA file picked in the browser: its name and PEM text. */
export type PickedCa = NonNullable<TlsOptions['caUpload']>;

export type Picked<T> = { ok: true; value: T } | { ok: false; message: string };

const MAX = LIMITS.uploadBytes.max;

function tooLarge(file: File): string | null {
  return file.size > MAX
    ? `${file.name} is ${formatBytes(file.size)}; a file sent from the browser is at most ${formatBytes(MAX)} (put larger ones in the folder of trebuchet serve --files-dir)`
    : null;
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** The picked body file, read; or why it cannot be sent. */
export async function pickBody(file: File): Promise<Picked<PickedBody>> {
  const problem = tooLarge(file);
  if (problem) return { ok: false, message: problem };
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { ok: true, value: { name: file.name, data: base64Of(bytes), bytes: bytes.length } };
}

/** The picked CA file, read as text (the host checks it is PEM); or why it cannot be sent. */
export async function pickCa(file: File): Promise<Picked<PickedCa>> {
  const problem = tooLarge(file);
  if (problem) return { ok: false, message: problem };
  return { ok: true, value: { name: file.name, pem: await file.text() } };
}

/** A saved scenario's picked body as the editor holds it. */
export function pickedBodyOf(body: Body): PickedBody | undefined {
  if (body.kind !== 'upload') return undefined;
  const padding = body.data.endsWith('==') ? 2 : body.data.endsWith('=') ? 1 : 0;
  return { name: body.name, data: body.data, bytes: (body.data.length / 4) * 3 - padding };
}

/** A targets file picked or dropped in the page (a target's list), read as text; or why it cannot be. */
export async function pickText(file: File): Promise<Picked<{ name: string; text: string }>> {
  const problem = tooLarge(file);
  if (problem) return { ok: false, message: problem };
  return { ok: true, value: { name: file.name, text: await file.text() } };
}
