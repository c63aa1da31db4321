/** `trebuchet serve`: the web host (the same UI in a browser) until Ctrl-C or SIGTERM. */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { startWebHost } from '../host/server.ts';
import { SERVE_HELP } from './help.ts';
import { EXIT } from './exit-codes.ts';
import type { MetricsOut } from '../../shared/metrics/outs.ts';
import { metricsOutFromFlags } from './metrics/metrics-flags.ts';
import { CliInputError, parseDataDir, parseWholeNumber } from './values.ts';
import { parseFlags } from './input/flags.ts';

export interface ServeContext {
  argv: readonly string[];
  /** --data-dir is resolved against it. */
  cwd: string;
  appVersion: string;
  /** The built renderer (vite's outDir). */
  staticDir: string;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Resolves on the first SIGINT or SIGTERM. */
  untilShutdown(): Promise<void>;
}

interface ServeOptions {
  host: string;
  port: number;
  allowNonLoopback: boolean;
  /** --allow-kubernetes: the page may start runs on Kubernetes, each after its confirmation. */
  allowKubernetes: boolean;
  /** Resolved against the working directory; undefined = the stores' default directory. */
  dataDir: string | undefined;
  /** --files-dir, resolved against the working directory; undefined = no file of this machine is read. */
  filesDir: string | undefined;
  /** --out, --metrics-listen: where every job's live metrics go; undefined = the app's setting. */
  metrics: MetricsOut | undefined;
}

function filesDirOf(value: string | undefined, cwd: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new CliInputError('--files-dir', 'is empty');
  const dir = resolve(cwd, value);
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) throw new CliInputError('--files-dir', `${dir} does not exist`);
  if (!stat.isDirectory()) throw new CliInputError('--files-dir', `${dir} is not a folder`);
  return dir;
}

function parseServeArgs(argv: readonly string[], cwd: string): ServeOptions | null {
  const { values } = parseFlags({
    args: [...argv],
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'allow-kubernetes': { type: 'boolean' },
      'data-dir': { type: 'string' },
      'files-dir': { type: 'string' },
      out: { type: 'string', multiple: true },
      'metrics-listen': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return null;
  const port = values.port === undefined ? 0 : parseWholeNumber('--port', values.port);
  if (port > 65535)
    throw new CliInputError('--port', `${port} is not a TCP port (0 to 65535; 0 picks a free one)`);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new CliInputError('--host', 'is empty');
  return {
    host,
    port,
    allowNonLoopback: values['allow-remote'] === true,
    allowKubernetes: values['allow-kubernetes'] === true,
    dataDir: parseDataDir(values['data-dir'], cwd),
    filesDir: filesDirOf(values['files-dir'], cwd),
    metrics:
      values.out === undefined && values['metrics-listen'] === undefined
        ? undefined
        : metricsOutFromFlags(values),
  };
}

export async function serveCommand(ctx: ServeContext): Promise<number> {
  let opts: ServeOptions | null;
  try {
    opts = parseServeArgs(ctx.argv, ctx.cwd);
  } catch (e) {
    if (!(e instanceof CliInputError)) throw e;
    ctx.stderr.write(`trebuchet serve: ${e.message}\n`);
    return EXIT.badInput;
  }
  if (opts === null) {
    ctx.stdout.write(SERVE_HELP);
    return EXIT.ok;
  }
  let host;
  try {
    const { metrics, ...web } = opts;
    host = await startWebHost({
      ...web,
      ...(metrics ? { metrics } : {}),
      staticDir: ctx.staticDir,
      appVersion: ctx.appVersion,
    });
  } catch (e) {
    // Not built yet, port taken, a non-loopback address without --allow-remote: say so, exit 1.
    ctx.stderr.write(`trebuchet serve: ${(e as Error).message}\n`);
    return EXIT.failed;
  }
  const files =
    host.filesDir === null
      ? 'none of this machine (pick them in the browser, or give --files-dir)'
      : `${host.filesDir} only`;
  ctx.stdout.write(
    `Trebuchet ${ctx.appVersion} is serving at ${host.url}\nPresets and run history: ${host.dataDir}\nBody and CA files: ${files}\n` +
      `Runs on Kubernetes: ${opts.allowKubernetes ? "allowed, each after the page's confirmation" : 'refused (give --allow-kubernetes to allow them)'}\n` +
      'Press Ctrl-C to stop.\n',
  );
  await ctx.untilShutdown();
  ctx.stderr.write('trebuchet serve: stopping\n');
  await host.close();
  return EXIT.ok;
}
