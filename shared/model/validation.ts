import type { z } from 'zod';

/** One problem with an input value: where it is (dotted path, e.g. "targets.0.url") and what is wrong. */
export interface FieldIssue {
  path: string;
  message: string;
}

export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** "targets.0.url: URL is not valid ...; load.connections: must be at most 10000" */
export function describeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

/** Parses without throwing; every boundary (IPC, files, CLI) goes through this. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const r = schema.safeParse(input);
  return r.success ? { ok: true, value: r.data } : { ok: false, issues: issuesOf(r.error) };
}

export class ValidationError extends Error {
  readonly issues: FieldIssue[];
  constructor(what: string, issues: FieldIssue[]) {
    super(`${what} is invalid: ${describeIssues(issues)}`);
    this.name = 'ValidationError';
    this.issues = issues;
  }
}

/** Parses or throws a ValidationError naming every bad field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const r = parseWith(schema, input);
  if (!r.ok) throw new ValidationError(what, r.issues);
  return r.value;
}

/** A JSON object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
