import type { z } from 'zod';
import { headerSchema, httpMethodSchema, targetUrlSchema, type Header } from '../model/scenario.ts';
import { LIMITS } from '../model/defaults.ts';

/** What is wrong with a targets file, at its line (1-based) and field. */
export interface TargetsProblem {
  line: number;
  field: string;
  message: string;
}

/** A problem as one sentence: "line 3, header: header name has characters HTTP does not allow". */
export function problemText(p: TargetsProblem): string {
  return `line ${p.line}, ${p.field}: ${p.message}`;
}

/** Thrown inside a parser; the entry point turns it into its result. */
export class TargetsFileError extends Error {
  readonly problem: TargetsProblem;
  constructor(problem: TargetsProblem) {
    super(problemText(problem));
    this.problem = problem;
  }
}

function checked<T>(schema: z.ZodType<T>, value: unknown, line: number, field: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new TargetsFileError({ line, field, message: r.error.issues[0]?.message ?? 'is not valid' });
}

export const checkedUrl = (url: string, line: number): string => checked(targetUrlSchema, url, line, 'url');

export const checkedMethod = (method: string, line: number): z.infer<typeof httpMethodSchema> =>
  checked(httpMethodSchema, method, line, 'method');

export const checkedHeader = (name: string, value: string, line: number): Header =>
  checked(headerSchema, { name, value }, line, 'header');

/** A request's headers may not pass the target's limit; the line of the one too many says so. */
export function checkHeaderCount(count: number, line: number): void {
  if (count > LIMITS.headers.max) {
    throw new TargetsFileError({
      line,
      field: 'header',
      message: `a request has at most ${LIMITS.headers.max} headers`,
    });
  }
}

/** A list may not pass LIMITS.listRequests: the line of the one too many says so. */
export function checkRequestCount(count: number, line: number): void {
  if (count > LIMITS.listRequests.max) {
    throw new TargetsFileError({
      line,
      field: 'request',
      message: `a list has at most ${LIMITS.listRequests.max} requests`,
    });
  }
}

/** A file's lines, its line ends (LF or CRLF) removed. */
export const linesOf = (text: string): string[] => text.split(/\r?\n/);
