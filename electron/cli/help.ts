/** Help text; defaults come from shared/model/defaults.ts so the help cannot drift from the schema. */
import { DEFAULTS, LIMITS } from '../../shared/model/defaults.ts';

export const MAIN_HELP = `Usage: trebuchet <command> [options]

Commands:
  run <url>... [flags]        benchmark one or more URLs (or --scenario file.json)
  run --preset NAME [flags]   run a preset (a scenario or a comparison), e.g. a seed experiment
  merge a.json b.json ...     merge the results of a plan's shards (run --shard) into one run
  capacity <url>... --p99 T   find the highest rate each server holds within a latency goal
  report RESULT.json...       print and write a saved result again, as when it ran
  diff BASE.json NEW.json     compare two saved results figure by figure, against noise
  presets [list|show NAME]    the built-in and saved presets
  history [list|show|export|rm] the run history of a data folder (interrupted jobs too)
  serve [--host H] [--port N] serve the Trebuchet UI to a browser (web host)
  help [command]              show help
  version                     print the version

Run "trebuchet help run" for the run flags.
`;

export const RUN_HELP = `Usage: trebuchet run <url>... [flags]
       trebuchet run --scenario file.json [flags]
       trebuchet run --targets FILE|- [flags]
       trebuchet run --preset NAME [--target 'name=url']... [<url>...] [flags]

Several URLs run one after another with the same load. Flags override the scenario file
or preset. Load goes to loopback or to servers you are allowed to test.

Presets (trebuchet presets list shows them):
      --preset NAME       a built-in or saved preset by id, name or a part only one has
                          (seed-004, jmeter), or a preset file (.json, or a bare scenario)
      --target 'N=URL'    point the preset's target N at URL (repeatable; http:// and https://
                          URLs of one target fill its http and https cells). URLs given without
                          --target replace the targets in order. A URL without a path
                          (http://127.0.0.1:8080) keeps the preset's path and query. Targets
                          given no URL are left out. Built-in presets hold placeholder URLs.
      --levels L,L,...    a comparison's levels: connections (closed) or rates (open model)
      --repetitions N     a comparison's runs per cell
      --pause T           a comparison's idle time between runs
  -n, -d, -p and the request, TLS and measuring flags below apply to a preset too; a
  comparison sets -c, --rate and the protocol per cell, so those are refused.

Closed model (ab -n/-c, wrk; the default):
  -c, --connections N     concurrent connections (default ${DEFAULTS.closed.connections}, max ${LIMITS.connections.max})
  -n, --requests N        stop after N requests (measured after the warm-up)
  -d, --duration T        run for T: 10, 10s, 1m30s (default ${DEFAULTS.closed.durationSeconds}s; a bare number is seconds)
  -p, --pipelining N      requests in flight per connection (default ${DEFAULTS.closed.pipelining})
      --closed            with --rate: a closed loop capped at that rate instead of the open model

Open model (vegeta attack -rate):
      --rate R            requests per second on a fixed schedule: 100, 100/s, 6000/1m
                          (default duration ${DEFAULTS.open.durationSeconds}s; -c, -n, -p need --closed)
      --max-in-flight N   cap on unanswered requests (default ${DEFAULTS.open.maxInFlight})

Stages (k6's ramping-vus and ramping-arrival-rate):
      --stages T:N,...    ramp the load linearly from 0 through each stage's target over its
                          duration: '30s:100,1m:1000,30s:0'. Targets are connections (closed
                          model), or req/s with --open; a 0s stage jumps. The stages set the
                          run's length (no -c, -n, -d or --rate beside them); the report has a
                          row per stage (--csv adds .stages.csv)
      --open              with --stages: the targets are rates (the open model)

Requests:
  -m, --method M          GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS (a body without -m is a POST)
  -H, --header 'N: v'     add a header (repeatable)
      --body TEXT         request body
      --body-file PATH    request body from a file

A list of requests (one target, the load spread over its requests; native engine):
      --targets FILE      the list, from a file, or - for standard input: vegeta's http format
                          (METHOD URL, header lines, @body-file, a blank line between), vegeta's
                          JSON lines ({method,url,header,body base64}) or http_load's url file
                          (one URL per line); up to 16 origins, each with connections of its
                          own (a slot keeps one per origin); -H goes with each request
      --targets-format F  http, json or urls (default: detected from the first line)
      --targets-order O   round-robin (the default, like vegeta: -n 4000 over 4 URLs sends each
                          exactly 1000 times) or random (like http_load)
      --seed N            the random order's seed (absent: drawn, and kept in the result)
  -k, --keepalive         keep connections alive (the default, as in wrk and vegeta; ab needs -k)
      --no-keepalive      a new connection (and TLS handshake) for every request, like ab without -k
      --http2             HTTP/2: over TLS for https:// (negotiated by ALPN h2), and h2c with
                          prior knowledge for http:// (the server must accept h2c)
      --timeout T         per-request timeout (default ${DEFAULTS.timeoutMs / 1000}s; a bare number is seconds)

Where the sockets go (Host, SNI and the certificate check keep the URL's name):
      --connect-to H:P:A:Q
                          curl's meaning: a request for host H port P connects to address A
                          port Q instead; an empty H or P matches any, an empty A or Q keeps the
                          URL's (repeatable; the first rule that matches wins). IPv6 in [brackets]
      --resolve H:P:A     curl's meaning: host H port P connects to address A, same port
                          (the same as --connect-to H:P:A:P)
      --unix-socket PATH  send the requests over this unix domain socket (HTTP/1.1, or h2c with
                          --http2); the URL still gives Host and path

Server resources (CPU, memory and load of the server beside throughput):
      --monitor M         auto: a target on this machine is watched through the process
                          listening on its port (or --unix-socket) and its children (Linux), a
                          remote one not at all; pid:N: that process and its children; a node_exporter URL
                          (http://server:9100/metrics): machine CPU, load, memory, network;
                          off. Default ${DEFAULTS.monitor.kind}. The report's Server resources and
                          --csv's .resources.csv show the figures.

TLS (certificates are verified by default):
      --insecure          accept self-signed, expired or wrong-host certificates
      --cacert PATH       trust the CA certificates in this PEM file
      --servername NAME   SNI name (and the name checked in the certificate)
      --tls-min-version V oldest TLS version offered: TLSv1, TLSv1.1, TLSv1.2 or TLSv1.3
                          (default ${DEFAULTS.tls.minVersion}; TLSv1 for a server that offers nothing newer)

Measuring:
      --engine E          auto, autocannon or native (default ${DEFAULTS.engine})
  -t, --threads N         engine worker threads the load is split across, like wrk -t (default
                          ${DEFAULTS.workers}: the cores, less one when the target is on this machine)
      --warmup T          leave the first T out of the result (default ${DEFAULTS.warmupSeconds})
      --slo T             a response slower than T counts as a failure (a bare number is ms)
      --threshold RULE    pass/fail rule, repeatable: 'p99<50' (ms), 'errors<1%', 'rps>=1000';
                          metrics p50 p90 p95 p99 p99.9 mean max errors rps
      --interval T        sample interval (default ${DEFAULTS.sampleIntervalMs}ms; a bare number is ms)
      --name NAME         scenario name
      --allow-error-status  run even when the check before the load is answered outside
                          2xx/3xx (a 404, a 401): for measuring error answers on purpose;
                          without it such a run stops before any load, naming the URL, the
                          status and the body's first line (exit 1). The verdict still says
                          all non-2xx

Across machines (docs/distributed.md):
      --shard i/N         run shard i of N of the plan, counted from 1 (1/3 ... 3/3):
                          connections and -n split exactly, a rate interleaved, stages stage by
                          stage, as between -t threads; one target; the result records the
                          shard, a plan id and its clock
      --start-at TIME     with --shard: start the load at this RFC 3339 time
                          (2026-12-02T10:00:00Z), not before; refused when more than 1 s past.
                          Give every shard the same TIME, then: trebuchet merge their --json files
      --start-on SOURCE   with --shard: get ready (target checked, connections warmed), say so,
                          and start when a coordinator says: stdin (its messages there) or
                          job/NAME (the Job's trebuchet.dev/go annotation). Writes the engine's
                          shard messages on stdout: what --shards runs in each process or pod
      --ready-file FILE   with --start-on: written once ready (a pod's readiness probe)
      --shards N          run the whole plan as N shards (1-100) started here, together once
                          every one is ready, merged live: the same progress and report as a
                          run here (its percentiles exact), plus a Shards table
      --on PLACE          local (N trebuchet processes on this machine) or kubernetes (an
                          Indexed Job; kubeconfig as kubectl finds it; RBAC in resources/kubernetes)
      --ready-timeout S   how long the shards may take to get ready (default 60 s local, 300 s
                          on kubernetes: pods scheduled, the image pulled); one not ready by then
                          fails the run, with the reason it waits
      --image IMAGE       kubernetes: the image (resources/docker/Dockerfile)
      --namespace NS      kubernetes: the namespace (default: the kubeconfig context's, else
                          trebuchet, as resources/kubernetes/rbac.yaml)
      --context CTX       kubernetes: the kubeconfig context (default: its current one)
      --node-selector K=V kubernetes: run the pods on nodes with this label (repeatable);
                          -t N sets the cores each pod requests (default 1)
      --dry-run           kubernetes: print the ConfigMap and Job (YAML, no start time in it),
                          call no API; apply it later, then kubectl annotate the Job's go

Live metrics (docs/metrics.md; Grafana dashboard: resources/grafana/trebuchet.json):
      --out prometheus-rw=URL  push to a Prometheus remote write endpoint as the run goes
                          (http://127.0.0.1:9090/api/v1/write, Prometheus started with
                          --web.enable-remote-write-receiver); repeatable
      --out otlp=URL      push OpenTelemetry metrics over OTLP/HTTP (a collector's
                          http://127.0.0.1:4318/v1/metrics); repeatable
      --metrics-listen HOST:PORT  serve them for scraping at http://HOST:PORT/metrics while
                          the command runs (port 0: a free one, said on stderr)
                          An endpoint that is down or slow never slows or fails the run: the
                          report warns of what did not arrive. --shard runs label theirs shard=i

Output:
      --format F          text (default: what vegeta report and ab print), ab, vegeta,
                          http_load, jmeter (Aggregate and Summary Report) or json; a
                          comparison prints each run in its preset's layout (ab, vegeta,
                          JMeter...) unless F is given, then the matrix; every report ends
                          with its verdict (clean, or why the figures are not the server's)
      --json FILE         write the result as JSON (an array when there are several targets);
                          --json - streams one JSON line per tick on stdout, then the result's
                          (instead of the report), for a coordinator following the log
      --csv FILE          write FILE's base name + .summary.csv, .timeseries.csv, .percentiles.csv
                          (and .resources.csv when the server was sampled, .stages.csv when
                          staged); a comparison: .matrix.csv, .summary.csv, .timeseries.csv,
                          a .percentiles-<protocol>-<level>.csv per level (and .resources.csv)
      --html FILE         write a self-contained HTML report (charts, tables, verdicts, facts;
                          opens offline, loads nothing) of the run or the comparison
      --export DIR        write every file the app's Download all holds into DIR (made if
                          missing), named after the run: NAME.json, every NAME.*.csv,
                          NAME.html and the text reports NAME.report.txt, .ab.txt,
                          .vegeta.txt, .http_load.txt, .jmeter.txt
      --save              keep the run in the history the app and trebuchet serve show (off by
                          default, so scripts leave no trace; secret header values are cleared)
      --data-dir DIR      where presets/ and history/ are (as trebuchet serve --data-dir)
      --keep-secrets      keep secret header values (Authorization, Cookie, API keys) in the
                          report and the --json and --csv files, written owner-only; without
                          it they are cleared
      --fail-unless-clean exit 1 unless every verdict is clean (for CI that wants the verdict
                          to gate: client-bound, rate not reached, failures, all non-2xx)
  -q, --quiet             no progress on stderr
  -h, --help              this help

Scenario, preset and plan files are read strictly (an unknown field is an error that names
it) and are at most ${LIMITS.inputFileBytes.max / 1024 / 1024} MiB.

Exit codes: 0 ok; 1 the run could not run (refused, TLS, a URL answered 404 before the load),
no request got any response, a threshold failed,
an output file or the --save could not be written, or (--fail-unless-clean) a verdict is not
clean; 2 bad input; 130 interrupted (Ctrl-C stops the run and prints the partial report).
`;

export const CAPACITY_HELP = `Usage: trebuchet capacity <url>... --p99 T [--errors P%] [--max-rate R] [--start-rate R] [--step T] [flags]
       trebuchet capacity --preset NAME [<url>... | --target name=url...] [--p99 T] [flags]

Finds the highest request rate each server holds within a goal: open-model steps (vegeta
-rate) from the start rate, doubling while the goal holds, then bisecting between the highest
rate that held and the lowest that broke until they are within ${DEFAULTS.capacity.precisionPercent}%. URLs run one after
another; name one with name=URL (nginx=http://127.0.0.1:8080/). Load goes to loopback or to
servers you are allowed to test.

Preset:
      --preset NAME       a capacity preset (its servers, goal and steps; flags change them), or
                          a comparison preset: one search per target and protocol (give --p99),
                          e.g. --preset "Which server holds the most" (trebuchet presets list)
      --target name=url   point the preset's target of that name at your server (URLs alone
                          replace its targets in order); targets given no URL are left out

Goal:
      --p99 T             a step breaks the goal when its p99 latency is above T (a bare number is ms)
      --errors P          ... or when transport errors, or non-2xx responses, are above P% of
                          its requests (default ${DEFAULTS.capacity.errorPercent}%)

Steps:
      --start-rate R      the first step's rate: 100, 100/s (default ${DEFAULTS.capacity.startRate})
      --max-rate R        the highest rate tried (default ${DEFAULTS.capacity.maxRate})
      --step T            measured time per step (default ${DEFAULTS.capacity.stepSeconds}s); at a low rate a step
                          runs longer (up to 5 times) to measure the 1,000 requests a p99 needs
      --warmup T          each step's warm-up at its rate, left out of its figures (default ${DEFAULTS.capacity.warmupSeconds}s)
      --max-in-flight N   cap on unanswered requests in a step (default ${DEFAULTS.open.maxInFlight})

A rate that broke the goal is measured again before the break counts. A step whose figures
are not the server's (the generator ran flat out, or the schedule was not kept while the
server kept up: a tiny --max-in-flight, a slow machine) ends the search with "at least N
req/s; the client was the limit", never a figure blamed on the server. A step that did not
hold while the machine was busy (other processes took its CPU) is the machine's: the search
waits for it to calm (up to four steps' time) and measures the rate again; when no quiet step
could be had, the answer says its figure is not the server's.

Requests, TLS and workers: -m, -H, --body, --body-file, -k/--no-keepalive, --http2,
--timeout, --connect-to, --resolve, --unix-socket, --monitor, --insecure, --cacert, --servername, --tls-min-version, --interval and
-t/--threads (each step's engine worker threads) as for trebuchet run (trebuchet help run).

Output:
      --format F          text (every step and each server's answer, then one sentence:
                          "nginx holds N req/s, Apache M req/s at p99 < 10 ms") or json
      --json FILE         write the plan, every step's run and the answers as JSON
      --csv FILE          write FILE's base name + .steps.csv (a row per step), .answers.csv
                          (a row per server), and every step's run as .summary.csv,
                          .timeseries.csv, .percentiles.csv (.resources.csv when sampled)
      --html FILE         write a self-contained HTML report: the answers, the knee, every
                          step and its run
      --export DIR        write every file the app's Download all holds into DIR (made if
                          missing): the above, and the text reports (.report.txt, and each
                          step's run as .ab.txt, .vegeta.txt, .http_load.txt, .jmeter.txt)
      --out KIND=URL      push live metrics: prometheus-rw=URL or otlp=URL, as for trebuchet run
      --metrics-listen HOST:PORT  serve live metrics at http://HOST:PORT/metrics (as trebuchet run)
      --save              keep the search in the history (each step's run with it)
      --data-dir DIR      where presets/ and history/ are (as trebuchet serve --data-dir)
      --keep-secrets      keep secret header values in the output (cleared by default)
  -q, --quiet             no step lines and no progress on stderr
      --name NAME         the search's name
  -h, --help              this help

Exit codes: 0 every server held a rate (a lower bound "at least" included), 1 a server held
none (not even the start rate, or nothing measured) or the search could not run, 2 bad
input, 130 interrupted (Ctrl-C stops the step and prints what was measured).
`;

export const PRESETS_HELP = `Usage: trebuchet presets [list] [--json] [--data-dir DIR]
       trebuchet presets show NAME [--keep-secrets] [--data-dir DIR]

list   the built-in presets (the seed experiments, with placeholder URLs) and the ones saved
       by the app or trebuchet serve, with their targets; --json prints them as JSON
show   one preset as JSON (by id, name, a part only one has, or a file); save it to a file,
       edit it, and run it with trebuchet run --preset file.json; secret header values
       (Authorization, Cookie, API keys) are cleared unless --keep-secrets

  --data-dir DIR    where presets/ is (default ~/.config/trebuchet-nodejs on Linux)
`;

export const SERVE_HELP = `Usage: trebuchet serve [--host 127.0.0.1] [--port N] [--data-dir DIR] [--files-dir DIR] [--allow-remote]
                       [--allow-kubernetes] [--out KIND=URL]... [--metrics-listen HOST:PORT]

Serves the Trebuchet UI and its API to a browser. Prints a URL that carries an access
token; runs until Ctrl-C or SIGTERM. Build the UI first (npm run serve does both).

  --host H          address to bind (default 127.0.0.1)
  --port N          port to bind (default 0: a free port, shown in the URL). With a port
                    given, its URL's token is kept in the data folder: a host restarted on
                    the same port and folder (after a crash) has it, and an open page takes
                    the host back by itself, showing a job the crash cut short
  --data-dir DIR    where the presets (presets/) and the run history (history/) are kept
                    (default ~/.config/trebuchet-nodejs on Linux)
  --files-dir DIR   the one folder whose files a scenario may name as a body or CA file
                    (paths are taken inside it; a link out of it is refused). Without it the
                    host reads none of this machine's files: pick them in the page, which
                    sends them (at most ${LIMITS.uploadBytes.max / 1024 / 1024} MiB each)
  --allow-remote    bind a non-loopback address (anyone who has the URL can start load
                    tests from this machine; prefer an SSH tunnel)
  --allow-kubernetes
                    let the page run shards on Kubernetes (an Indexed Job in a cluster this
                    machine's kubeconfig reaches), each run only after the page confirmed its
                    context, namespace, image and pod count. Without it such a run is refused
  --out KIND=URL    every job's live metrics pushed to prometheus-rw=URL or otlp=URL
                    (repeatable; as trebuchet run); replaces the app's "Send live metrics to"
  --metrics-listen HOST:PORT
                    every job's live metrics served at http://HOST:PORT/metrics

Every finished or stopped run and comparison is saved in the history. Secret header
values (Authorization, Cookie, API keys) are cleared from saved runs and written to
presets only when you agree to keep them as plain text.
`;

export const REPORT_HELP = `Usage: trebuchet report RESULT.json... [--format F] [--json F] [--csv F] [--html F] [--export DIR]

Prints and writes a saved result again exactly as its command did when it ran: the same
text, the same files, the same exit code. A result is what --json wrote (a run, a
comparison, a capacity search) or a file of the history folder (history/ in the data
directory, ~/.config/trebuchet-nodejs on Linux). Several run files are one report of all
their targets, in the order given; a comparison or a capacity search is given alone. A file
written by a newer Trebuchet is refused naming its format version; an older history file
is read as it is now.

      --format F          text (default), ab, vegeta, http_load, jmeter, json (as trebuchet run;
                          a capacity search prints its text or json)
      --json F            the result as JSON
      --csv F             the CSV files, named from F (out.csv -> out.summary.csv, ...)
      --html F            the self-contained HTML report
      --export DIR        every file of the result, named as the app downloads them
      --keep-secrets      keep secret header values in the output (cleared by default)
      --fail-unless-clean exit 1 unless every verdict is clean
  -h, --help              this help

Exit codes: as the result's command: 0 ran clean, 1 a run failed, got no response, failed a
threshold (or a capacity search held no rate), or a file could not be written; 2 bad input
(a file unreadable, not a result, of a newer version, or a comparison given with others).
`;

export const DIFF_HELP = `Usage: trebuchet diff BASE.json NEW.json [--fail-on 'p99>+10%']... [--json F] [--html F]

Compares two saved results of the same kind (runs, comparisons or capacity searches, as
--json or the history wrote them) figure by figure: req/s, mean, p50, p90, p99, p99.9,
max, errors, non-2xx, late, and server CPU per 10k requests where both have it. For each:
both values, the change and its percentage, and whether the change is larger than
run-to-run noise. Targets (and a comparison's protocols and levels, a capacity search's
rates) are matched by name; what is only on one side is listed.

Noise: with 2 or more repetitions on both sides (a comparison's cells), Welch's t-test on
the repetitions (95 %). With single runs, a Kolmogorov-Smirnov test on the two latency
histograms for the latency figures, and Welch's t-test over the runs' sample windows (1 s
unless --interval) for req/s and the counts; both count windows, not requests, as the
evidence (requests of one run are not independent), so a run needs 4 windows or more. The
histogram test judges the whole distribution, and its verdict is every latency figure's:
a change in the tail alone may pass as noise.
Single runs carry less evidence than repetitions: repeat runs to tell small changes apart.
The server's CPU is tested only over repetitions.

      --fail-on RULE      exit 1 when FIGURE moved past LIMIT percent and beyond noise:
                          'p99>+10%' (p99 rose more than 10 %), 'rps<-5%' (req/s fell more
                          than 5 %); repeatable. FIGURE: rps, mean, p50, p90, p99, p99.9,
                          max, errors, non2xx, late, cpu. A change within noise is reported
                          but never fails
      --json F            the diff as JSON
      --html F            the diff as a self-contained HTML report
  -h, --help              this help

Exit codes: 0 no regression, 1 a --fail-on rule was broken beyond noise (or a file could not
be written), 2 bad input (a file unreadable or not a result, files of different kinds,
plans with nothing in common: the names on each side are listed).
`;

export const MERGE_HELP = `Usage: trebuchet merge SHARD... [--json F] [--csv F] [--html F] [--export DIR] [--format F]

Merges the results of every shard of one plan (trebuchet run --shard i/N --start-at T, i
counted from 1, each a --json file or a --json - log) into one run, exactly: counts added, latency histograms
added (the percentiles are those of one histogram of every request), stage rows added,
samples aligned by time. The report adds a Shards table (each shard's req/s, p99, generator
CPU, start offset); the verdict is client-bound when any shard was, and warns when the
shards started more than 10 ms apart. Refused (exit 2), naming the file, when the files are
of different plans, or a shard index is missing or given twice.

      --format F          text (default), ab, vegeta, http_load, jmeter or json
      --json FILE         write the merged result as JSON
      --csv FILE          write FILE's base name + .summary.csv, .timeseries.csv, .percentiles.csv
      --html FILE         write a self-contained HTML report
      --export DIR        write every file of the run's bundle into DIR
      --keep-secrets      keep secret header values in the report and files
      --fail-unless-clean exit 1 unless the verdict is clean
  -h, --help              this help
`;
