import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientLimitWarning } from '../../electron/engine/limits.ts';

const linux = process.platform === 'linux';

describe('clientLimitWarning', () => {
  it('says in one line that the open-files limit was hit, what it cost and how to raise it', () => {
    const w = clientLimitWarning('open-files', 1234, 200);
    expect(w.code).toBe('client-limit');
    expect(w.message).not.toContain('\n');
    expect(w.message).toContain('open-files limit (EMFILE)');
    expect(w.message).toContain('1234 request(s) could not open a connection');
    expect(w.message).toContain('for 200 connection(s)');
    expect(w.message).toContain('`ulimit -n 4096`');
    if (linux) {
      const soft = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))![1];
      expect(w.message).toContain(`(ulimit -n) is ${soft} for`);
    }
    // The suggestion grows with what was asked for.
    expect(clientLimitWarning('open-files', 1, 10_000).message).toContain('`ulimit -n 16384`');
  });

  it('says in one line that the local ports ran out, with the range and the fix', () => {
    const w = clientLimitWarning('local-ports', 7, 30_000);
    expect(w.code).toBe('client-limit');
    expect(w.message).not.toContain('\n');
    expect(w.message).toContain('ran out of local ports (EADDRNOTAVAIL): 7 request(s)');
    expect(w.message).toContain('net.ipv4.ip_local_port_range');
    if (linux) {
      const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
      expect(w.message).toContain(`(${low}-${high} here, ${Number(high) - Number(low) + 1} ports)`);
    }
  });
});
