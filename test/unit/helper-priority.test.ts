import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELPER_NICE } from '../../electron/engine/thread/helper-priority.ts';

const MODULE = resolve(import.meta.dirname, '../../electron/engine/thread/helper-priority.ts');

interface Thread {
  tid: number;
  name: string;
  nice: number;
}
interface Seen {
  own: number;
  before: Thread[];
  lowered: number;
  after: Thread[];
  again: number;
}

/**
 * yieldV8Helpers in a Node process of its own (it changes its process's threads for good), after
 * `setup` there; its threads before and after, and what a second call lowered.
 */
function inChild(setup = ''): Seen {
  const script = `
    import { readdirSync, readFileSync } from 'node:fs';
    import { getPriority, setPriority } from 'node:os';
    import { yieldV8Helpers } from ${JSON.stringify(MODULE)};
    const threads = () => readdirSync('/proc/self/task').map((t) => ({
      tid: Number(t), name: readFileSync('/proc/self/task/' + t + '/comm', 'latin1').trim(), nice: getPriority(Number(t)),
    }));
    ${setup}
    const before = threads();
    const lowered = yieldV8Helpers();
    const after = threads();
    console.log(JSON.stringify({ own: getPriority(), before, lowered, after, again: yieldV8Helpers() }));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  ) as Seen;
}

const isHelper = (t: Thread): boolean => t.name === 'V8Worker' || t.name === 'DelayedTaskSche';

describe.runIf(process.platform === 'linux')("V8's helper threads give way to the engine's", () => {
  it('lowers every V8 platform thread, and only those, HELPER_NICE below the calling thread, once', () => {
    const seen = inChild();
    const target = Math.min(19, seen.own + HELPER_NICE);
    const helpers = seen.before.filter(isHelper);
    expect(helpers.filter((t) => t.name === 'V8Worker').length).toBeGreaterThan(0);
    expect(seen.lowered).toBe(helpers.filter((t) => t.nice < target).length);
    const after = new Map(seen.after.map((t) => [t.tid, t.nice]));
    for (const h of helpers) expect(after.get(h.tid)).toBe(target);
    // Nothing else moved: the calling thread and Node's other threads keep their priority.
    for (const t of seen.before.filter((t) => !isHelper(t))) expect(after.get(t.tid)).toBe(t.nice);
    // Each of the CLI's runs calls it: the second call finds nothing to lower.
    expect(seen.again).toBe(0);
  });

  it('never raises a helper thread that was already lower', () => {
    const seen = inChild(`
      const helper = threads().find((t) => t.name === 'V8Worker');
      setPriority(helper.tid, 19);`);
    const lowest = seen.before.filter((t) => t.name === 'V8Worker' && t.nice === 19);
    expect(lowest).toHaveLength(1);
    expect(new Map(seen.after.map((t) => [t.tid, t.nice])).get(lowest[0]!.tid)).toBe(19);
  });
});
