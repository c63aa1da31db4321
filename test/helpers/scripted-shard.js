// A machine's shard on a scripted engine: a process that speaks what `trebuchet run --shard i/N
// --start-on stdin` speaks (the engine's shard messages on stdout, the coordinator's on stdin)
// and sends no request. It says ready at once; from the go, each tick it sends a window from
// its script, then the script's report after the plan's duration. The script is made once by
// the test with the engine's own Recorder (shard-script.ts). Plain JavaScript importing only
// Node's own modules: no TypeScript loader to start, so a hundred of them start on two cores in
// seconds; they are there to measure the coordinator, not the load.
//
//   node test/helpers/scripted-shard.js SCRIPT.json run --scenario plan.json --shard i/N --start-on stdin -q
import { readFileSync } from 'node:fs';
import os from 'node:os';

const [scriptFile, , ...args] = process.argv.slice(2);
/** @param {string} name */
const flag = (name) => args[args.indexOf(name) + 1];
/** @type {{ target: object; kinds: { window: object; report: object }[] }} */
const script = JSON.parse(readFileSync(scriptFile, 'utf8'));
/** @type {{ load: { limit: { seconds: number } }; options: { sampleIntervalMs: number } }} */
const plan = JSON.parse(readFileSync(flag('--scenario'), 'utf8'));
const index = Number(flag('--shard').split('/')[0]) - 1;
const { window, report } = script.kinds[index % script.kinds.length];
const intervalMs = plan.options.sampleIntervalMs;
const ticks = Math.round((plan.load.limit.seconds * 1000) / intervalMs);
/** @param {object} m */
const send = (m) => void process.stdout.write(`${JSON.stringify(m)}\n`);

/** @param {number} goAt */
function begin(goAt) {
  let tick = 0;
  const next = () => {
    tick++;
    const at = goAt + tick * intervalMs;
    if (tick < ticks) {
      send({ type: 'window', index: tick, at, endsWarmup: false, window });
      setTimeout(next, at + intervalMs - Date.now());
      return;
    }
    const machine = {
      host: os.hostname(),
      cores: 1,
      startAt: goAt,
      workers: [{ mean: 5, max: 5, saturated: false }],
    };
    send({ type: 'report', index: tick, at, window, report, failure: null, startedAt: goAt, machine });
    process.exit(0);
  };
  setTimeout(next, goAt + intervalMs - Date.now());
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (/** @type {string} */ chunk) => {
  buffered += chunk;
  for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
    const line = buffered.slice(0, nl).trim();
    buffered = buffered.slice(nl + 1);
    if (line === '') continue;
    const message = JSON.parse(line);
    if (message.type === 'start') begin(message.at);
    else process.exit(0);
  }
});
process.stdin.on('end', () => process.exit(0));
send({ type: 'ready', target: script.target });
