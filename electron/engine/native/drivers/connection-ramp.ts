import { stagesSeconds, targetAt, type Stage } from '../../../../shared/model/stages.ts';
import type { Client } from '../run-state.ts';

/**
 * How often the closed model's connection count follows a staged target. A ramp of 1000
 * connections over 1 s adds 20 per step; finer steps would only cost timer wake-ups.
 */
export const RAMP_STEP_MS = 50;

/**
 * The closed model's connections under a stage plan (k6's ramping-vus): every step, as many
 * connections carry load as the target says (rounded). Connections past the target are
 * retired: they send nothing more and close once their requests are answered, so a ramp down
 * never cuts a request off. A retired connection still draining is taken back first when the
 * target rises again.
 */
export class ConnectionRamp {
  private readonly stages: readonly Stage[];
  private readonly make: () => Client;
  /** The driver's client list (swept for timeouts, destroyed at the end): kept in step with the ramp. */
  private readonly clients: Client[];
  private readonly start: (client: Client) => void;
  private readonly changed: (connections: number) => void;
  private readonly active: Client[] = [];
  private readonly retiring = new Set<Client>();
  /** Closed by the ramp: a pacer's wake-up may still hand one back, and it must not send. */
  private readonly closed = new WeakSet<Client>();
  /** Requests one client takes at once; an idle client has this many free. */
  private perClient = 1;
  private t0 = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(opts: {
    stages: readonly Stage[];
    make: () => Client;
    clients: Client[];
    /** Puts a newly active client to work. */
    start: (client: Client) => void;
    /** The count of connections carrying load, after each step that changed it. */
    changed: (connections: number) => void;
  }) {
    this.stages = opts.stages;
    this.make = opts.make;
    this.clients = opts.clients;
    this.start = opts.start;
    this.changed = opts.changed;
  }

  begin(t0: number): void {
    this.t0 = t0;
    this.step();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Whether the client is past the target; a retired one that is idle is closed now. */
  retired(client: Client): boolean {
    if (this.closed.has(client)) return true;
    if (!this.retiring.has(client)) return false;
    if (client.free >= this.perClient) this.close(client);
    return true;
  }

  private step(): void {
    this.timer = null;
    const t = (performance.now() - this.t0) / 1000;
    this.follow(Math.round(targetAt(this.stages, t)));
    if (t < stagesSeconds(this.stages)) this.timer = setTimeout(() => this.step(), RAMP_STEP_MS);
  }

  private follow(target: number): void {
    const before = this.active.length;
    while (this.active.length > target) {
      const client = this.active.pop()!;
      this.retiring.add(client);
      this.retired(client);
    }
    while (this.active.length < target) {
      const back = this.retiring.values().next();
      const client = back.done ? this.added() : back.value;
      this.retiring.delete(client);
      this.active.push(client);
      this.start(client);
    }
    if (this.active.length !== before) this.changed(this.active.length);
  }

  private added(): Client {
    const client = this.make();
    if (this.clients.length === 0) this.perClient = Math.max(1, client.free);
    this.clients.push(client);
    return client;
  }

  private close(client: Client): void {
    this.retiring.delete(client);
    this.closed.add(client);
    const i = this.clients.indexOf(client);
    if (i >= 0) this.clients.splice(i, 1);
    client.destroy();
  }
}
