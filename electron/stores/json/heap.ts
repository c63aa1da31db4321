/**
 * The heap while large trees are built (a result file read, an import): V8 keeps its young
 * generation steady, and a queue of imports lets each one's tree go before the next is built.
 * Runtime flags are the process's; the two used here are read as they are needed, so they
 * apply at once and go.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * V8's young generation is kept at its size while a large tree is built: every object of a
 * tree survives, and at each survival V8 doubled the young generation's room (up to 128 MB),
 * more than the tree of a 60 MB file's samples (a 91 MB file's read peaked at 345 MB, 230 MB
 * so). Put back after: short-lived garbage (a request's) is what the default suits. Runtime
 * flags are the process's; this one is read at each growth, so it applies at once and goes.
 */
let steadyReads = 0;
export function steadyYoungGeneration(on: boolean): void {
  steadyReads += on ? 1 : -1;
  if (steadyReads === (on ? 1 : 0)) v8.setFlagsFromString(`--semi-space-growth-factor=${on ? 1 : 2}`);
}

let collect: (() => void) | null = null;

/**
 * A full collection now: what the import before left (its tree, dead once saved) is gone before
 * the next import builds its own. Without it V8 grew its limits over each queued import's
 * garbage: ten 60 MB imports queued peaked at 562 MB against one's 246. A collection costs a
 * few hundred milliseconds after an import of seconds.
 */
export function collectGarbage(): void {
  if (collect === null) {
    // gc() is given to a context made once the flag is on.
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
}
