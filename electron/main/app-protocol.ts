import type { Protocol } from 'electron';
import { securityHeaders } from '../host/csp.ts';
import { readStaticFile } from '../host/static-files.ts';

/**
 * The renderer is served from app://trebuchet/ rather than file://: a real origin to check
 * senders against, response headers (the CSP) on every file, and no access to the rest of
 * the disk through relative URLs.
 */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://trebuchet`;
export const APP_START_URL = `${APP_ORIGIN}/index.html`;

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Answers app://trebuchet/<path> from rootDir (dist/renderer), with the security headers. */
export function serveRenderer(protocol: Protocol, rootDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file =
      url.host === 'trebuchet' && request.method === 'GET'
        ? await readStaticFile(rootDir, url.pathname)
        : null;
    if (!file) return new Response('Not found.', { status: 404, headers: securityHeaders() });
    return new Response(new Uint8Array(file.body), {
      status: 200,
      headers: { ...securityHeaders(), 'content-type': file.contentType },
    });
  });
}
