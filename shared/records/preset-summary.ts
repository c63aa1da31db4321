/*
 * What the preset store tells about a preset: the secret header values it holds (which header
 * names carry credentials, and where), its summary, and the answers to a save or an export.
 */
import { recordKind, type NamedTarget } from './kinds.ts';
import type { Preset, PresetKind } from './presets.ts';
import { isSecretHeader } from '../model/secret-headers.ts';

/** A secret header value in a preset: which target, which header. */
export interface SecretRef {
  targetIndex: number;
  headerIndex: number;
  /** The target's display name. */
  target: string;
  header: string;
}

function targetsOf(p: Preset): NamedTarget[] {
  const spec = recordKind(p.kind);
  return spec.targets(spec.planOf(p));
}

/** The preset's secret headers that hold a value (an empty value keeps no secret). */
export function secretHeadersOf(p: Preset): SecretRef[] {
  const out: SecretRef[] = [];
  targetsOf(p).forEach((t, targetIndex) => {
    t.headers.forEach((h, headerIndex) => {
      if (isSecretHeader(h.name) && h.value !== '')
        out.push({ targetIndex, headerIndex, target: t.label, header: h.name });
    });
  });
  return out;
}

/** "Authorization on nginx, Cookie on apache" */
export function describeSecrets(refs: readonly SecretRef[]): string {
  return refs.map((r) => `${r.header} on ${r.target}`).join(', ');
}

// ---------------------------------------------------------------------------------------
// What the stores answer with (shown by the UI)

export interface PresetSummary {
  id: string;
  name: string;
  description: string;
  kind: PresetKind;
  /** built-in: shipped with the app (read-only; duplicate it to change it). */
  source: 'user' | 'built-in';
  createdAt: string;
  updatedAt: string;
  /** Display names of the targets. */
  targets: string[];
  /** Secret header values the preset holds. */
  secretCount: number;
  /** True when some secret values could not be decrypted here; they read as empty. */
  secretsUnavailable: boolean;
}

export function summarizePreset(
  p: Preset,
  source: PresetSummary['source'],
  secretsUnavailable = false,
): PresetSummary {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    kind: p.kind,
    source,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    targets: targetsOf(p).map((t) => t.label),
    secretCount: secretHeadersOf(p).length,
    secretsUnavailable,
  };
}

/** A store file that could not be read: kept aside under another name, reported, never wiped. */
export interface StoreProblem {
  store: 'presets' | 'history' | 'settings';
  /** The file that was broken. */
  file: string;
  /** Where it was moved (kept for the user to inspect); null when nothing was moved. */
  keptAs: string | null;
  message: string;
  /** When the problem was found (ISO 8601). */
  at: string;
}

/** How a store handles secret header values when it can only write plain text. */
export interface SecretOptions {
  /** The user agreed to keep secret values as plain text. */
  allowPlaintextSecrets?: boolean;
  /** Save without the secret values (they are cleared). */
  omitSecrets?: boolean;
}

/**
 * The answer to a save, import or export. `secrets-need-consent`: the preset holds secret
 * header values and the store can only write them as plain text; message is the question
 * to ask, and repeating the call with allowPlaintextSecrets or omitSecrets answers it.
 */
export type SaveOutcome =
  | { ok: true; preset: PresetSummary }
  | { ok: false; reason: 'secrets-need-consent'; secrets: SecretRef[]; message: string };

/** The answer to an export: the file's text and a suggested file name, or the secrets question. */
export type ExportOutcome =
  | { ok: true; text: string; fileName: string }
  | { ok: false; reason: 'secrets-need-consent'; secrets: SecretRef[]; message: string };
