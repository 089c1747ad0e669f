/**
 * Signals for a server and everything it started. `npx`, `uvx` and shell wrappers run the real
 * server as a grandchild: signalling the direct child alone leaves it behind. On POSIX the server
 * is started as the leader of its own process group, and the group is signalled as one; Windows
 * has `taskkill /T`, which walks the tree.
 */
import { spawnSync } from 'node:child_process';

const WINDOWS = process.platform === 'win32';

/** Whether children are started in a group of their own, so `signalTree` reaches them all. */
export const OWN_GROUP = !WINDOWS;

/**
 * Sends `signal` to the process `pid` and its descendants. Synchronous, so it can run while the
 * parent exits. Never throws: a tree that is already gone is what the caller wanted.
 */
export function signalTree(pid: number, signal: 'SIGTERM' | 'SIGKILL'): void {
  if (WINDOWS) {
    // Windows has no SIGTERM for console programs: ending the tree is the only way.
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: no process of the group is left.
  }
}

/** Whether any process of the tree `pid` leads is still running (POSIX; Windows: the leader). */
export function treeAlive(pid: number): boolean {
  try {
    process.kill(WINDOWS ? pid : -pid, 0);
    return true;
  } catch {
    // ESRCH: none left. EPERM: what is left runs as another user; no signal of ours reaches it.
    return false;
  }
}
