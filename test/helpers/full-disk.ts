/**
 * A full disk for one child process: a tiny tmpfs mounted over a folder in a mount namespace
 * of the child's own (unshare), so the mount needs no cleanup and nothing else sees it. As
 * root (here and in CI) `unshare -m`; otherwise `unshare -rm`, a user namespace in which the
 * user may mount a tmpfs. Writes past `kib` KiB then fail with ENOSPC, as on a full disk.
 */
import { userInfo } from 'node:os';

/** The argv prefix that runs a command with `dir` on a `kib` KiB tmpfs. */
export function fullDiskWrapper(dir: string, kib: number): string[] {
  const namespace = userInfo().uid === 0 ? ['-m'] : ['-r', '-m'];
  return ['unshare', ...namespace, 'sh', '-c', `mount -t tmpfs -o size=${kib}k tmpfs "$0" && exec "$@"`, dir];
}
