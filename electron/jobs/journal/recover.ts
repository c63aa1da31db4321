/**
 * A host's start (desktop, web host, a CLI that opens the data folder): every journal whose
 * writer is gone becomes a History entry, then goes. Its finished parts are kept whole; the
 * part it was running when the host stopped becomes a partial run rebuilt from its samples,
 * status 'interrupted', ending at the journal's last word; the record is 'interrupted' too and
 * listed at that moment. A journal that ended (its record could not be saved then) is saved
 * with the status it ended with. A journal that cannot be read is kept aside, never deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { JobKind } from '../../../shared/contract/jobs.ts';
import type { RunResult, RunStatus } from '../../../shared/model/result.ts';
import { describeIssues, ValidationError } from '../../../shared/model/validation.ts';
import { journalPlanLineSchema, readJournal, type JournalContents } from '../../../shared/records/journal.ts';
import type { HistorySummary, HistoryRecordDraft } from '../../../shared/records/history.ts';
import { recordKind } from '../../../shared/records/kinds.ts';
import { resultFromSamples } from '../../engine/result.ts';
import { plannedEngine } from '../../engine/load-generators.ts';
import { fileTimestamp } from '../../stores/files.ts';
import { newRunId } from '../ids.ts';
import { JOURNAL_FOLDER, JOURNAL_SUFFIX, MAX_JOURNAL_BYTES } from './writer.ts';
import { pidAlive, writerGone } from './writer-identity.ts';

/** A job the host did not finish, now in History. */
export interface RecoveredJob {
  jobId: string;
  kind: JobKind;
  /** Who had started it (a page's client id): the one a reconnecting page is told about. */
  owner: string;
  status: RunStatus;
  historyId: string;
}

export interface RecoveryOptions {
  dataDir: string;
  history: { save(draft: HistoryRecordDraft, ranAt?: Date): Promise<HistorySummary> };
  /** Said once per journal recovered or set aside (stderr for the CLI, the log for a host). */
  say?: (message: string) => void;
}

const CLAIMED = /\.journal\.recovering-(\d+)$/;

/** Every line of a file as JSON values; a last line cut short by the kill (not JSON) is left out. */
async function readLines(file: string): Promise<{ ok: true; lines: unknown[] } | { ok: false; why: string }> {
  const lines: unknown[] = [];
  let torn: number | null = null;
  const input = fs.createReadStream(file);
  try {
    let n = 0;
    for await (const text of readline.createInterface({ input, crlfDelay: Infinity })) {
      n++;
      if (torn !== null) return { ok: false, why: `line ${torn} is not JSON` };
      if (text === '') continue;
      try {
        lines.push(JSON.parse(text));
      } catch {
        torn = n;
      }
    }
  } finally {
    input.destroy();
  }
  return { ok: true, lines };
}

/** The first line only (the plan, with its writer), to see whose journal it is without reading it all. */
async function headOf(file: string): Promise<unknown> {
  const input = fs.createReadStream(file);
  try {
    for await (const text of readline.createInterface({ input, crlfDelay: Infinity }))
      return JSON.parse(text);
  } catch {
    return null;
  } finally {
    input.destroy();
  }
  return null;
}

/** Takes a journal for this process by renaming it (atomic: of two hosts starting at once, one wins). */
function claim(file: string): string | null {
  const base = file.replace(CLAIMED, JOURNAL_SUFFIX);
  const claimed = `${base}.recovering-${process.pid}`;
  try {
    fs.renameSync(file, claimed);
    return claimed;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The journals this start should turn into entries, claimed; journals of live jobs stay. */
async function claimable(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const claimedBy = CLAIMED.exec(name)?.[1];
    if (claimedBy !== undefined) {
      // Another start was saving it and died: take it over.
      if (Number(claimedBy) !== process.pid && !pidAlive(Number(claimedBy))) {
        const taken = claim(file);
        if (taken) out.push(taken);
      }
      continue;
    }
    if (!name.endsWith(JOURNAL_SUFFIX)) continue;
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    const head = journalPlanLineSchema.safeParse(await headOf(file));
    // A plan line not written whole: the host died in its first moment, before any load.
    if (head.success && !writerGone(head.data.writer, stat.mtimeMs)) continue;
    const taken = claim(file);
    if (taken) out.push(taken);
  }
  return out;
}

/** The part the host was running, as a run made of its samples: status interrupted, ended at `at`. */
function cutRun(contents: JournalContents, at: Date): RunResult | null {
  const cut = contents.cut;
  if (!cut) return null;
  const { scenario, targetIndex } = cut;
  const target = scenario.targets[targetIndex];
  if (!target) return null;
  return resultFromSamples(
    {
      // A run's results carry its job id as their runId; a cell's or a step's run has an id of its own.
      runId: contents.header.kind === 'run' ? contents.header.jobId : newRunId(),
      scenarioName: scenario.name,
      target,
      load: scenario.load,
      options: scenario.options,
      appVersion: contents.header.appVersion,
    },
    'interrupted',
    null,
    {
      engine: plannedEngine(scenario.options),
      startedAt: new Date(cut.at),
      endedAt: at,
      samples: cut.samples,
    },
  );
}

/** The record a journal becomes, and when it ended; null when it holds nothing measured. */
function draftOf(contents: JournalContents, lastAlive: Date): { draft: HistoryRecordDraft; at: Date } | null {
  const { header, finished, end } = contents;
  const at = end ? new Date(end.at) : lastAlive;
  const cut = cutRun(contents, at);
  const parts = cut && contents.cut ? [...finished, contents.cut.resultOf(cut)] : finished;
  if (parts.length === 0) return null;
  const draft = recordKind(header.kind).fromJob(header.plan, parts, end?.status ?? 'interrupted');
  return { draft: { ...draft, appVersion: header.appVersion }, at };
}

/**
 * Turns the data folder's journals whose writers are gone into History entries (see the top).
 * Never throws for one journal: a broken one is set aside, one that cannot be saved (a full
 * disk) stays for the next start; either is said.
 */
export async function recoverJournals(opts: RecoveryOptions): Promise<RecoveredJob[]> {
  const dir = path.join(opts.dataDir, JOURNAL_FOLDER);
  const say = opts.say ?? ((message: string) => console.error(`trebuchet: ${message}`));
  const recovered: RecoveredJob[] = [];
  for (const file of await claimable(dir)) {
    const original = file.replace(CLAIMED, JOURNAL_SUFFIX);
    const setAside = (why: string): void => {
      // Named so that no start takes it for a journal again; nothing measured is deleted.
      const keptAs = `${original}.broken-${fileTimestamp(new Date())}`;
      fs.renameSync(file, keptAs);
      say(`a job's journal could not be read (${why}); it was kept as ${keptAs}`);
    };
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.size > MAX_JOURNAL_BYTES + 1024 * 1024) {
      setAside(`it is ${stat.size} bytes, more than a journal holds`);
      continue;
    }
    const read = await readLines(file);
    if (!read.ok) {
      setAside(read.why);
      continue;
    }
    if (read.lines.length === 0) {
      fs.rmSync(file, { force: true });
      continue;
    }
    const contents = readJournal(read.lines);
    if (!contents.ok) {
      setAside(describeIssues(contents.issues));
      continue;
    }
    const made = draftOf(contents.value, stat.mtime);
    if (!made) {
      // Stopped before any part measured: there is nothing to keep.
      fs.rmSync(file, { force: true });
      continue;
    }
    const { header } = contents.value;
    let summary: HistorySummary;
    try {
      summary = await opts.history.save(made.draft, made.at);
    } catch (error) {
      // A record its own schema refuses never will be saved: kept aside, not tried at every start.
      if (error instanceof ValidationError) {
        setAside(error.message);
        continue;
      }
      fs.renameSync(file, original);
      say(
        `job ${header.jobId} could not be saved in History from its journal (${error instanceof Error ? error.message : String(error)}); the next start tries again`,
      );
      continue;
    }
    fs.rmSync(file, { force: true });
    say(
      `job ${header.jobId} (${header.kind}) was ${summary.status === 'interrupted' ? 'interrupted: the host stopped' : summary.status} before its record was saved; it is in History as ${summary.id}`,
    );
    recovered.push({
      jobId: header.jobId,
      kind: header.kind,
      owner: header.owner,
      status: summary.status,
      historyId: summary.id,
    });
  }
  return recovered;
}
