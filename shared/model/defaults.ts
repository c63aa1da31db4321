/**
 * Every default in one place: the schema, the UI's initial form and the CLI's help derive
 * from these values, so they cannot drift apart.
 */
export const DEFAULTS = {
  method: 'GET',
  closed: {
    connections: 10,
    pipelining: 1,
    durationSeconds: 10,
  },
  open: {
    rate: 100,
    durationSeconds: 5,
    maxInFlight: 1000,
  },
  /**
   * A staged load's first plan in the editor: ramp up to the model's default level, hold it,
   * ramp down to 0 (shared/model/stages.ts).
   */
  stages: { rampSeconds: 5, holdSeconds: 10 },
  keepAlive: true,
  protocol: 'http1.1',
  engine: 'auto',
  /** Engine worker threads: 'auto' = the machine's cores, less one when the target is on it (see shared/shards/plan.ts). */
  workers: 'auto',
  timeoutMs: 10_000,
  warmupSeconds: 0,
  sampleIntervalMs: 1000,
  /** The pre-flight stops a run whose request is answered outside 2xx/3xx (options.checkStatus). */
  checkStatus: true,
  tls: {
    verify: true,
    /** Node's own default: TLS 1.0 and 1.1 only when a scenario asks for them. */
    minVersion: 'TLSv1.2',
  },
  /** How a target's server is watched (shared/model/monitor.ts): 'auto' = its process when it runs on this machine, else nothing. */
  monitor: {
    kind: 'auto',
    /**
     * Readings are at least this far apart: a 100 ms engine tick would otherwise read /proc or
     * scrape a node_exporter ten times a second. Readings fall on engine ticks (the run's time
     * axis), so a shorter sample interval gives a resource sample every few ticks.
     */
    minIntervalMs: 1000,
    /** A node_exporter scrape slower than this is a gap (never a failed run). */
    exporterTimeoutMs: 2000,
    /** node_exporter sends 50-300 KB; a larger answer is a gap, never read further. */
    exporterMaxBytes: 8 * 1024 * 1024,
    /** Series of the families used (CPU modes x cores, network devices); more is a gap. */
    exporterMaxSeries: 50_000,
    /** Network devices left out of the in/out rates (loopback traffic is not the server's network). */
    excludeDevices: ['lo'],
    /** Processes of one tree sampled at most (nginx, Apache children); the rest is a named gap. */
    maxProcesses: 1024,
  },
  /**
   * The largest response head the engines and the pre-flight accept: an HTTP/1.1 status
   * line and headers, or an HTTP/2 header block (HEADERS plus CONTINUATION frames) and the
   * header list it decodes to. Beyond it the response is a protocol error, so a server
   * cannot make the client buffer without bound.
   */
  maxResponseHeaderBytes: 1024 * 1024,
  comparison: {
    /** Repetitions per cell: at least 2 give a spread to tell a difference from noise. */
    repetitions: 3,
    pauseSeconds: 0,
    /** The matrix's columns when a plan names none (see shared/comparison/report-settings.ts). */
    columns: [
      'runs',
      'rps',
      'rpsStdev',
      'rpsMin',
      'rpsMax',
      'p50',
      'p95',
      'p99',
      'failed',
      'success',
      // Server CPU-seconds per 10,000 requests (target.monitor): which server spent the least CPU for the same work.
      'serverCpuPer10k',
      'verdict',
    ],
  },
  /**
   * The machine the generator runs on, read beside every run (electron/machine/): readings fall
   * on engine ticks like the server's (monitor.minIntervalMs apart at least).
   */
  machine: {
    /**
     * A reading's own CPU stays within this share of a core: a machine whose process list costs
     * more to read than that at the interval is read less often (2 ms for 113 processes here).
     */
    costPercent: 0.5,
    /** The longest the interval grows to, however many processes there are. */
    maxIntervalMs: 10_000,
    /** Processes read per reading at most (Linux's default pid_max is 4,194,304): the rest is a note. */
    maxProcesses: 20_000,
  },
  /**
   * The capacity search (shared/capacity/search.ts): open-model steps from startRate, doubling up to
   * maxRate, then bisecting. Each step warms up, then measures stepSeconds.
   */
  capacity: {
    startRate: 100,
    maxRate: 100_000,
    stepSeconds: 5,
    warmupSeconds: 1,
    /** Transport errors or non-2xx responses above this share of the requests break the goal. */
    errorPercent: 1,
    /** Bisecting ends once the lowest rate that broke is within this share above the highest that held. */
    precisionPercent: 5,
  },
} as const;

export const LIMITS = {
  connections: { min: 1, max: 10_000 },
  pipelining: { min: 1, max: 1000 },
  durationSeconds: { min: 0.1, max: 24 * 3600 },
  requests: { min: 1, max: 1_000_000_000 },
  rate: { min: 0.1, max: 1_000_000 },
  maxInFlight: { min: 1, max: 100_000 },
  workers: { min: 1, max: 256 },
  timeoutMs: { min: 1, max: 3_600_000 },
  warmupSeconds: { min: 0, max: 3600 },
  sampleIntervalMs: { min: 100, max: 60_000 },
  sloMs: { min: 0.001, max: 3_600_000 },
  repetitions: { min: 1, max: 100 },
  pauseSeconds: { min: 0, max: 3600 },
  /** Targets of a scenario or a comparison plan. */
  targets: { max: 100 },
  /** Load levels of a comparison plan, and the runs (cells) its matrix expands to. */
  levels: { max: 100 },
  comparisonRuns: { max: 10_000 },
  /** Names of scenarios, plans and targets; a target's URL. */
  nameChars: { max: 200 },
  urlChars: { max: 64 * 1024 },
  /** Headers of one target: their count, one name, one value, and all of them together (name + value). */
  headers: { max: 1000 },
  headerNameChars: { max: 1024 },
  headerValueChars: { max: 64 * 1024 },
  headerChars: { max: 1024 * 1024 },
  /** A body typed in (characters) and a body file (bytes): the engine holds the body in memory. */
  textBodyChars: { max: 4 * 1024 * 1024 },
  bodyFileBytes: { max: 256 * 1024 * 1024 },
  /** A PEM file of trusted CA certificates. */
  caFileBytes: { max: 4 * 1024 * 1024 },
  /**
   * A file picked in the browser (a body, a CA file) travels in the scenario, base64 or text,
   * inside one message to the web host: larger ones go in the host's --files-dir folder.
   */
  uploadBytes: { max: 2 * 1024 * 1024 },
  /**
   * Every file a person writes or hands over that is read whole: a scenario, preset,
   * comparison or capacity plan file (--scenario, --preset FILE, an import), a preset in
   * presets/, the history's index. Checked by size on the opened file before it is read;
   * a real one is a few kilobytes.
   */
  inputFileBytes: { max: 16 * 1024 * 1024 },
  /**
   * A run record in history/ (a run, comparison or capacity search with every sample):
   * larger, as it grows with the run (a day at the default interval is about 40 MB), and
   * also checked by size before it is read (below V8's longest string).
   */
  runFileBytes: { max: 500 * 1024 * 1024 },
  /**
   * Result files imported into History in one go (a drop or a pick, all files together): they
   * travel from the page to the host in one request and are held in memory there, parsed, so
   * they are capped far below a run file. 64 MiB holds a day's run at the default interval
   * (about 40 MB) or a set of shards of shorter ones; a larger file is read with `trebuchet
   * report` or copied into the history folder.
   */
  importBytes: { max: 64 * 1024 * 1024 },
  /** A file path in a scenario (body, CA file). */
  pathChars: { max: 4096 },
  /** SNI server name: a DNS name is at most 253 characters. */
  servernameChars: { max: 253 },
  /** A target's --connect-to rules (curl takes the first that matches). */
  connectTo: { max: 100 },
  /**
   * A target's list of requests (vegeta's targets, http_load's url file): how many, and the
   * characters of their inline bodies together (text and browser-picked files), since the
   * list travels in the scenario. A targets file (`--targets`) is read whole, bounded by size.
   */
  listRequests: { max: 10_000 },
  listBodyChars: { max: 16 * 1024 * 1024 },
  /** The origins (scheme, host, port) one list may reach: each gets a connection pool per slot. */
  listOrigins: { max: 16 },
  targetsFileBytes: { max: 8 * 1024 * 1024 },
  /**
   * Rows of a run's per-URL table: a list with more distinct METHOD URLs counts the rest in one
   * "every other" row, so a worker's per-URL counts stay bounded (a row's latency buckets are sparse).
   */
  urlRows: { max: 1000 },
  /** The seed of a random request order (http_load's -seed): an unsigned 32-bit number. */
  seed: { min: 0, max: 2 ** 32 - 1 },
  /** A unix socket path: Linux's sun_path holds 107 bytes and a NUL. */
  unixSocketChars: { max: 107 },
  thresholds: { max: 100 },
  /** A capacity search's error limit, percent of the requests. */
  errorPercent: { min: 0, max: 100 },
  /**
   * Stages of a staged load (shared/model/stages.ts). A stage that gets responses keeps a latency
   * histogram of about 190 KB for the run, so a plan's memory stays under 10 MB.
   */
  stages: { max: 50 },
  /** Runs and comparisons one host (desktop app, web host) runs at the same time. */
  concurrentRuns: { max: 4 },
  /** Process ids: Linux allows up to 2^22, Windows larger ones. */
  pid: { min: 1, max: 2 ** 31 - 1 },
} as const;

/**
 * When a result's figures stop being the server's (shared/verdict/verdict.ts). Shares are percent of
 * the requests concerned: scheduled ones for the rate, finished ones for failures.
 */
export const VERDICT = {
  /** Open model: late or dropped requests above this share of the scheduled ones: the rate was not reached. */
  rateShortfallPercent: 1,
  /** Generator CPU (percent of one core) above this: the client, not the server, was the limit. */
  clientBoundCpuPercent: 90,
  /** Transport errors, error statuses or SLO failures above this share of the requests: failures. */
  failurePercent: 1,
  /**
   * Machine readings judge a run only when they cover this many core-seconds (cores x measured
   * seconds): /proc counts CPU time in 10 ms ticks, so the shares below are read to 1 %.
   */
  machineMinCoreSeconds: 1,
  /** Other processes took more than this share of all the machine's cores: machine busy. */
  machineOtherPercent: 10,
  /** Less idle than this share of all cores while neither the generator nor the server was flat: machine busy. */
  machineIdlePercent: 5,
  /**
   * The machine had room when at least this much of one core stayed idle (a second server
   * worker could have had half a core): a flat server process there is the server's
   * configuration's limit, and a closed run with nothing flat is limited by its connections.
   */
  roomCorePercent: 50,
  /** A server process above this share of one core ran flat out. */
  serverProcessFlatPercent: 90,
  /** Connection setup (connect + TLS) more than this share of the p99: setup-bound. */
  setupSharePercent: 50,
  /**
   * ...and adding at least this much to it: a loopback connect takes tens of microseconds, and
   * up to a few milliseconds on a machine loaded many times over (measured here at load 15-20):
   * a part under 10 ms is that noise, not handshakes that make the p99.
   */
  setupMinMs: 10,
  /** ...over at least this many responses: the p99 of fewer is one of the slowest, the first on a connection. */
  setupMinResponses: 100,
  /** The link carried more than this share of its speed in either direction: link-bound. */
  linkPercent: 90,
} as const;

/** ab's percentile table plus the tail (99.9, 99.99). Order matters: reports print it as is. */
export const REPORT_PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 99.9, 99.99, 100] as const;
