import path from 'node:path';
import {
  BASELINES_FORMAT,
  BASELINES_VERSION,
  readBaselinesFile,
  type Baseline,
} from '../../shared/records/baselines.ts';
import { LIMITS } from '../../shared/model/defaults.ts';
import { describeIssues, newerVersionIssue } from '../../shared/model/validation.ts';
import { readBoundedFile, textOf } from '../files/bounded-file.ts';
import { moveAside, parseJsonText, writeFileAtomic } from './files.ts';

/*
 * baselines.json of the history directory: per subject, the saved run later runs of it are
 * compared with (shared/records/baselines.ts). Not a cache like index.json: the user chose
 * them, so a broken file is set aside (and said), never silently rebuilt empty.
 */

const BASELINES_FILE = 'baselines.json';

export class HistoryBaselines {
  private readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, BASELINES_FILE);
  }

  /**
   * The baselines kept; none when the file is missing. A file that cannot be read (broken,
   * of a newer version) is set aside and `onSetAside` told why and where it was kept.
   */
  async load(
    now: Date,
    onSetAside: (file: string, keptAs: string | null, why: string) => void,
  ): Promise<Baseline[]> {
    let text: string;
    try {
      text = textOf(await readBoundedFile(this.file, LIMITS.inputFileBytes.max, 'the baselines file'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      onSetAside(this.file, moveAside(this.file, now), e instanceof Error ? e.message : String(e));
      return [];
    }
    const json = parseJsonText(text);
    const newer = json.ok ? newerVersionIssue(json.value, 'baselines file', BASELINES_VERSION) : null;
    const parsed = json.ok && !newer ? readBaselinesFile(json.value) : null;
    if (parsed?.ok) return parsed.value;
    const why = !json.ok
      ? json.message
      : newer
        ? newer.message
        : describeIssues(parsed && !parsed.ok ? parsed.issues : []);
    onSetAside(this.file, moveAside(this.file, now), why);
    return [];
  }

  async write(baselines: readonly Baseline[]): Promise<void> {
    const doc = { format: BASELINES_FORMAT, version: BASELINES_VERSION, baselines };
    await writeFileAtomic(this.file, `${JSON.stringify(doc, null, 2)}\n`);
  }
}
