/**
 * A server past this machine, made on it (issue 32): a network namespace of the test's own,
 * joined to this one by a veth pair whose two ends are shaped by tc's token bucket (tbf) to a
 * rate, and a Node server in the namespace answering every request with a body of a given
 * size. The load goes to the namespace's address only. remove() takes everything down.
 */
import { execFileSync, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ShapedLink {
  /** The server's URL in the namespace: http://10.x.y.2:8080/ */
  url: string;
  /** The veth end on this machine's side, the device the route to the server leaves by. */
  device: string;
  /** The shaper's rate, bits per second. */
  bitsPerSecond: number;
  remove(): Promise<void>;
}

const run = (args: readonly string[]): string => execFileSync(args[0]!, args.slice(1), { encoding: 'utf8' });

/**
 * Names and a /30 of this test process's own (interface names hold 15 characters), so tests
 * of several worktrees at once do not meet.
 */
function names(): { ns: string; host: string; peer: string; net: string } {
  const id = process.pid;
  return {
    ns: `trb-${id}`,
    host: `trb${id}h`,
    peer: `trb${id}n`,
    net: `10.${100 + (id % 100)}.${(id >> 7) % 250}`,
  };
}

/** The link and its server; `mbit` the shaped rate, `bodyBytes` each answer's body. */
export async function startShapedLink(mbit: number, bodyBytes: number): Promise<ShapedLink> {
  const { ns, host, peer, net } = names();
  // The token bucket holds 10 ms of the rate: tbf sends only when its timer fires, and on a
  // loaded machine that timer slips by milliseconds; a smaller bucket loses the tokens of every
  // slip, so the link never carries its rate (4 KB carried 86 % of 20 Mb/s at load 22). Over a
  // run of seconds the bucket adds well under 1 % to the rate.
  const tbf = ['tbf', 'rate', `${mbit}mbit`, 'burst', `${mbit * 10}kbit`, 'latency', '400ms'];
  const shape = (dev: string) => ['tc', 'qdisc', 'add', 'dev', dev, 'root', ...tbf];
  const steps: (readonly string[])[] = [
    ['ip', 'netns', 'add', ns],
    ['ip', 'link', 'add', host, 'type', 'veth', 'peer', 'name', peer],
    ['ip', 'link', 'set', peer, 'netns', ns],
    ['ip', 'addr', 'add', `${net}.1/30`, 'dev', host],
    ['ip', 'link', 'set', host, 'up'],
    ['ip', 'netns', 'exec', ns, 'ip', 'addr', 'add', `${net}.2/30`, 'dev', peer],
    ['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', peer, 'up'],
    ['ip', 'netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up'],
    // Both directions: the answers leave the namespace's end, the requests this machine's.
    shape(host),
    ['ip', 'netns', 'exec', ns, ...shape(peer)],
  ];
  const teardown = (): void => {
    for (const args of [
      ['ip', 'link', 'del', host],
      ['ip', 'netns', 'del', ns],
    ]) {
      try {
        run(args);
      } catch {
        // Not made, or gone with the namespace.
      }
    }
  };
  try {
    for (const step of steps) run(step);
  } catch (err) {
    teardown();
    throw new Error(`a shaped link needs network namespaces, veth and tc (root): ${(err as Error).message}`, {
      cause: err,
    });
  }
  const script = `const b = Buffer.alloc(${bodyBytes}, 97); require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/octet-stream'); s.end(b); }).listen(8080, '${net}.2', () => console.log('listening'));`;
  const server = spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    server.stdout.once('data', () => resolve());
    server.once('exit', (code) => reject(new Error(`the namespace's server exited (${code})`)));
  }).catch((err: unknown) => {
    teardown();
    throw err;
  });
  return {
    url: `http://${net}.2:8080/`,
    device: host,
    bitsPerSecond: mbit * 1e6,
    remove: async () => {
      server.kill('SIGTERM');
      // The server ends at once; a machine loaded many times over may take a moment.
      await Promise.race([exited, sleep(5000)]);
      teardown();
    },
  };
}
