import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** A file of the built renderer, ready to send. */
export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** True for HTML: the web host guards pages with its token and never caches them. */
  isHtml: boolean;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Maps a URL path to a file inside root, or null when it is outside root, malformed or
 * missing. "/" is index.html. Shared by the web host and Electron's app:// protocol, so
 * both refuse path traversal the same way.
 */
export function staticFilePath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = path.posix.normalize(decoded === '/' || decoded === '' ? '/index.html' : decoded);
  const base = path.resolve(root);
  const full = path.resolve(base, `.${relative}`);
  return full.startsWith(base + path.sep) ? full : null;
}

export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const file = staticFilePath(root, urlPath);
  if (!file) return null;
  try {
    if (!(await stat(file)).isFile()) return null;
    const ext = path.extname(file).toLowerCase();
    return {
      body: await readFile(file),
      contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      isHtml: ext === '.html',
    };
  } catch {
    return null;
  }
}
