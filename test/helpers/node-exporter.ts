/**
 * Debian's prometheus-node-exporter on a free loopback port, for the server-monitor tests:
 * only the collectors the monitor reads (cpu, loadavg, meminfo, netdev), so a scrape takes a
 * few ms instead of the hundred the full set needs. Started and stopped like the web servers.
 */
import { launchServer, type LocalServer } from './server-process.ts';

export const NODE_EXPORTER_BIN = '/usr/bin/prometheus-node-exporter';

/** The exporter; httpUrl is its root page (HTML), `${httpUrl}metrics` the metrics. */
export function startNodeExporter(): Promise<LocalServer> {
  return launchServer({
    name: 'node_exporter',
    https: false,
    configure: ({ ports }) => ({
      bin: NODE_EXPORTER_BIN,
      args: [
        `--web.listen-address=127.0.0.1:${ports.http}`,
        '--collector.disable-defaults',
        '--collector.cpu',
        '--collector.loadavg',
        '--collector.meminfo',
        '--collector.netdev',
      ],
    }),
  });
}
