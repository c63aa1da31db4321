import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../helpers/scripted-engine.ts';
import { startHttpServer, type TestServer } from '../helpers/servers.ts';
import { fillScenario, waitForStatus } from './app-page.ts';
import { useE2eApp } from './fixture.ts';

/*
 * The target card's "Connect to": the URL names a server that does not resolve
 * (example.test), the rule sends the sockets to a loopback server, which sees the URL's Host;
 * the report says where the sockets went. The engine's pre-flight is real (its one request takes
 * the rule), the load scripted: routes.test.ts checks that every request of the engine's load does.
 */

const engine = new ScriptedEngine();
const e2e = useE2eApp({ engine });
let server: TestServer;
const hosts = new Map<string, number>();

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const host = req.headers.host ?? '';
    hosts.set(host, (hosts.get(host) ?? 0) + 1);
    res.end('ok');
  });
});
afterAll(() => server?.close());

describe('Connect to, in the target card', () => {
  it('a bad rule is shown at the field; a good one runs against loopback with the URL’s Host', async () => {
    const app = await e2e.open();
    const { page } = app;
    await fillScenario(app, { url: 'http://example.test:8080/hello', connections: 2, seconds: 1 });
    await page.getByTestId('target-route-0').getByText('Advanced: where to connect').click();
    await page.getByTestId('target-connect-to-0').fill('example.test:8080:127.0.0.1');
    await page.getByTestId('target-connect-to-0').blur();
    await expect
      .poll(() => page.getByTestId('target-route-0').textContent())
      .toContain('rule 1: "example.test:8080:127.0.0.1" is not HOST:PORT:ADDRESS:PORT');
    await app.screenshot('e2e-connect-to-invalid.png');

    await page.getByTestId('target-connect-to-0').fill(`example.test:8080:127.0.0.1:${server.port}`);
    await page.getByTestId('target-0').scrollIntoViewIfNeeded();
    await app.screenshot('e2e-connect-to-filled.png');
    await page.getByTestId('run-button').click();
    expect(await waitForStatus(app, ['completed', 'failed'])).toBe('completed');
    const [result] = app.results();
    expect(result!.error).toBeNull();
    expect(result!.target.connectTo).toEqual([`example.test:8080:127.0.0.1:${server.port}`]);
    expect(result!.server).toMatchObject({
      hostname: 'example.test',
      port: 8080,
      connectedTo: `127.0.0.1:${server.port}`,
    });
    // The engine was given the rule, and the request the server saw (the pre-flight's) named the URL's host.
    expect(engine.started[0]!.targets[0]!.connectTo).toEqual([`example.test:8080:127.0.0.1:${server.port}`]);
    expect([...hosts.keys()]).toEqual(['example.test:8080']);
    expect(hosts.get('example.test:8080')).toBe(1);
    const facts = page.getByTestId('server-facts');
    await facts.scrollIntoViewIfNeeded();
    await expect.poll(() => facts.textContent()).toContain(`Connected to127.0.0.1:${server.port}`);
    await app.screenshot('e2e-connect-to-report.png');
  });
});
