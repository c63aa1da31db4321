import { z } from 'zod';

/*
 * The machine the load generator runs on, read beside every run (electron/machine/): its CPU
 * (busy, idle, iowait, steal), the generator's whole process and its busiest thread, and the
 * processes that are neither the generator nor the monitored server ("other processes"),
 * the three busiest of them named. For a target past this machine, the link the traffic
 * leaves by when its speed is known. What a RunResult and the live events carry. Pure.
 *
 * Units, as the server's readings have them: a machine-wide share is percent of all the
 * machine's cores (0-100, what top's header and Grafana show); a process's or thread's CPU is
 * percent of one core (a process of two busy threads reads 200).
 */

const nonNeg = z.number().nonnegative();
const count = z.number().int().nonnegative();

/** One process that is neither the generator nor the server, and its CPU (percent of one core). */
export const otherProcessSchema = z.strictObject({
  /** Its command name (comm, at most 15 characters on Linux). */
  name: z.string().max(64),
  pid: z.number().int().positive(),
  cpuPercent: nonNeg,
});
export type OtherProcess = z.infer<typeof otherProcessSchema>;

/** The others named at most, busiest first. */
export const OTHER_PROCESSES_SHOWN = 3;

/** One reading of the machine, on the engine Sample it was taken at (same seq and time axis). */
export const machineSampleSchema = z.strictObject({
  seq: count,
  elapsedSeconds: nonNeg,
  /** Wall time this reading's figures cover, since the previous reading. */
  intervalSeconds: nonNeg,
  /** It covers warm-up time (left out of the summary and the verdict). */
  warmup: z.boolean(),
  /** CPUs the machine has (those the kernel counts time for). */
  cores: z.number().int().positive(),
  /** Share of all cores that was busy: user, nice, system, irq, softirq and steal (0-100). */
  cpuBusyPercent: nonNeg,
  /** Share of all cores idle, iowait apart (idle with a disk request pending), and stolen by the hypervisor. */
  cpuIdlePercent: nonNeg,
  cpuIowaitPercent: nonNeg,
  cpuStealPercent: nonNeg,
  /** The generator's process (every thread: engine, coordinator, GC, main) and its children, % of one core. */
  generatorCpuPercent: nonNeg,
  /** The generator's busiest thread in this window (Linux), % of one core. */
  generatorThread: z.strictObject({ name: z.string().max(64), cpuPercent: nonNeg }).optional(),
  /**
   * Every other process's CPU summed, % of one core (Linux: where processes can be listed). In
   * a light reading's window (no otherProcesses), the machine's busy time less the generator's
   * and the server's: it holds the kernel's threads and interrupts too.
   */
  otherCpuPercent: nonNeg.optional(),
  /**
   * The busiest other processes of this window, at most OTHER_PROCESSES_SHOWN; absent where
   * the others were not read one by one (too light to pass the busy share, or not listed).
   */
  otherProcesses: z.array(otherProcessSchema).max(OTHER_PROCESSES_SHOWN).optional(),
  /** A target past this machine with a known link: bits per second the link's device received and sent. */
  linkInBitsPerSecond: nonNeg.optional(),
  linkOutBitsPerSecond: nonNeg.optional(),
  /** Why this tick has no reading. */
  gap: z.string().max(500).optional(),
});
export type MachineSample = z.infer<typeof machineSampleSchema>;

/** The link a target past this machine is reached by, when its speed is known. */
export const machineLinkSchema = z.strictObject({
  /** The network device the route to the target leaves by (eth0, a veth). */
  device: z.string().max(64),
  /** Its speed in bits per second: the device's own, or a traffic shaper's rate on it when lower. */
  bitsPerSecond: z.number().positive(),
  /** speed: /sys/class/net/<device>/speed; shaper: the rate of a tc qdisc on the device. */
  from: z.enum(['speed', 'shaper']),
  /** Mean bits per second received and sent over the measured readings. */
  inBitsPerSecond: nonNeg,
  outBitsPerSecond: nonNeg,
});
export type MachineLink = z.infer<typeof machineLinkSchema>;

/** The machine during a run: its readings and their summary over the measured time. */
export const machineFactsSchema = z.strictObject({
  /**
   * procfs: Linux's /proc/stat and the processes' /proc/<pid>/stat (every process's when the
   * others took enough to be named, else the generator's and the server's); os: the operating
   * system's per-core times (os.cpus()), no process list.
   */
  reader: z.enum(['procfs', 'os']),
  platform: z.string().max(64),
  cores: z.number().int().positive(),
  /** Readings were at least this far apart (more on a machine whose process list costs more to read). */
  minIntervalMs: z.number().int().positive(),
  samples: z.array(machineSampleSchema),
  /** Seconds of measured time the readings cover (warm-up left out). */
  coveredSeconds: nonNeg,
  /** Means over the measured readings, weighted by their windows (shares of all cores, 0-100). */
  cpuBusyPercent: nonNeg,
  cpuBusyPercentMax: nonNeg,
  cpuIdlePercent: nonNeg,
  cpuIowaitPercent: nonNeg,
  cpuStealPercent: nonNeg,
  /** Every other process's CPU summed, mean % of one core; null where processes cannot be listed. */
  otherCpuPercent: nonNeg.nullable(),
  /** The busiest other processes over the measured time, each its mean % of one core. */
  otherProcesses: z.array(otherProcessSchema).max(OTHER_PROCESSES_SHOWN),
  /** The server runs inside the generator's process (a test's own server): the generator's figures hold its CPU too. */
  serverInGenerator: z.boolean(),
  link: machineLinkSchema.optional(),
  notes: z.array(z.string().max(500)).max(20),
  /** The readings' own CPU on the host (the /proc reads), % of one core over the run. */
  monitorCpuPercent: nonNeg.nullable(),
});
export type MachineFacts = z.infer<typeof machineFactsSchema>;

/** The generator's whole process, from the machine's readings (RunResult.generator.process). */
export const generatorProcessSchema = z.strictObject({
  /** The process and its children, every thread, mean and max % of one core over the measured readings. */
  cpuPercentMean: nonNeg,
  cpuPercentMax: nonNeg,
  /** Its busiest thread over the measured time (Linux), by mean. */
  busiestThread: z
    .strictObject({ name: z.string().max(64), cpuPercentMean: nonNeg, cpuPercentMax: nonNeg })
    .nullable(),
  /** The process took nearly all the machine's cores, or one thread nearly all of one core. */
  saturated: z.boolean(),
});
export type GeneratorProcess = z.infer<typeof generatorProcessSchema>;
