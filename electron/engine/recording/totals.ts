import type { ErrorKind } from '../../../shared/model/result.ts';

/** Whole-run counters, warm-up excluded. */
export interface Totals {
  total: number;
  responses: number;
  ok: number;
  non2xx: number;
  errors: number;
  sloExceeded: number;
  /** Responses whose body length differs from documentLength (ab's "Length" failures). */
  lengthMismatch: number;
  late: number;
  inBody: number;
  inTotal: number;
  outBody: number;
  outTotal: number;
  /** Requests started, each once however often it is written (a resend on a new connection is the same request). */
  sent: number;
  /** Responses that answered no request (see RunResult's requests.unsolicited): not in total. */
  unsolicited: number;
  errorSet: Map<ErrorKind, { count: number; message: string }>;
  /** Body length of the first successful response (ab's "Document Length"). */
  documentLength: number | null;
  /** Server header of the first response (ab's "Server Software"). */
  serverSoftware: string | null;
}

/** Totals with nothing counted yet. */
export function emptyTotals(): Totals {
  return {
    total: 0,
    responses: 0,
    ok: 0,
    non2xx: 0,
    errors: 0,
    sloExceeded: 0,
    lengthMismatch: 0,
    late: 0,
    inBody: 0,
    inTotal: 0,
    outBody: 0,
    outTotal: 0,
    sent: 0,
    unsolicited: 0,
    errorSet: new Map(),
    documentLength: null,
    serverSoftware: null,
  };
}
