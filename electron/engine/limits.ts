import { readFileSync } from 'node:fs';
import type { Warning } from '../../shared/model/result.ts';
import type { ClientLimit } from './errors.ts';

/** This process's soft open-files limit (Linux: /proc/self/limits), or null where it cannot be read. */
function openFilesLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isInteger(soft) ? soft : null;
  } catch {
    return null;
  }
}

/** Linux's ephemeral port range, or null where it cannot be read. */
function localPortRange(): [number, number] | null {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return Number.isInteger(low) && Number.isInteger(high) ? [low!, high!] : null;
  } catch {
    return null;
  }
}

/**
 * The run's one line about a limit of the load generator's machine it ran into: what
 * happened, what it cost, and the fix. `connections`: what the scenario asked for (the
 * open model's in-flight cap).
 */
export function clientLimitWarning(limit: ClientLimit, failures: number, connections: number): Warning {
  const cost = `${failures} request(s) could not open a connection`;
  if (limit === 'open-files') {
    const current = openFilesLimit();
    const suggested = Math.max(4096, 2 ** Math.ceil(Math.log2(connections + 256)));
    const now = current === null ? '' : ` is ${current}`;
    return {
      code: 'client-limit',
      message: `The load generator hit its open-files limit (EMFILE): ${cost}. The limit (ulimit -n)${now} for ${connections} connection(s); raise it, e.g. \`ulimit -n ${suggested}\` in the shell that starts Trebuchet, and run again.`,
    };
  }
  const range = localPortRange();
  const ports = range === null ? '' : ` (${range[0]}-${range[1]} here, ${range[1] - range[0] + 1} ports)`;
  return {
    code: 'client-limit',
    message: `The load generator ran out of local ports (EADDRNOTAVAIL): ${cost}. Each new connection takes a port from the ephemeral range${ports}, and a closed one keeps it for a minute (TIME_WAIT); keep connections alive, open fewer, or widen the range: \`sysctl -w net.ipv4.ip_local_port_range="1024 65535"\`.`,
  };
}
