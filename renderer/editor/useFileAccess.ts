import { useEffect, useState } from 'react';
import { connectApi } from '../api/index.ts';

/**
 * How the editors offer body and CA files. The desktop app reads any path of its machine; a
 * page of the web host picks files in the browser and sends them, and names paths only when
 * the host was started with a folder (trebuchet serve --files-dir), inside it.
 */
export interface FileAccess {
  /** A file input that sends the picked file (the web host). */
  pick: boolean;
  /** Paths are taken (desktop: any; web host: inside `folder`). */
  paths: boolean;
  /** The web host's folder, shown beside the path field; null without one. */
  folder: string | null;
}

const DESKTOP: FileAccess = { pick: false, paths: true, folder: null };
const WEB_WITHOUT_FOLDER: FileAccess = { pick: true, paths: false, folder: null };

let known: Promise<FileAccess> | null = null;

/** What the host says of its files, asked once per page. */
function fileAccess(): Promise<FileAccess> {
  known ??= connectApi()
    .then((api) => api.app.info())
    .then((info): FileAccess => {
      if (info.host !== 'web') return DESKTOP;
      const folder = info.filesDir ?? null;
      return { pick: true, paths: folder !== null, folder };
    });
  return known;
}

export function useFileAccess(): FileAccess {
  // Electron's preload is there from the start; a browser page asks its host for the folder.
  const [access, setAccess] = useState<FileAccess>(() =>
    typeof window !== 'undefined' && window.trebuchet ? DESKTOP : WEB_WITHOUT_FOLDER,
  );
  useEffect(() => {
    let live = true;
    fileAccess().then(
      (a) => {
        if (live) setAccess(a);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return access;
}
