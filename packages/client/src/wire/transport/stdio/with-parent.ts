/**
 * Server processes die with the parent. When the parent exits (normally, on an uncaught exception,
 * or on a signal it does not handle itself), every server tree still running is killed at once:
 * nothing is left to read its output, and a server that ignores the end of its input would live
 * on. signal-exit hooks the exit and the fatal signals without changing what the process does on
 * them; the hook is there only while some server runs.
 */
import { onExit } from 'signal-exit';
import { signalTree } from './tree.ts';

const running = new Set<number>();
let unhook: (() => void) | undefined;

/** Kills the tree `pid` leads when the parent exits; the function returned stops that. */
export function dieWithParent(pid: number): () => void {
  running.add(pid);
  unhook ??= onExit(() => {
    for (const leader of running) signalTree(leader, 'SIGKILL');
  });
  return () => {
    running.delete(pid);
    if (running.size === 0) {
      unhook?.();
      unhook = undefined;
    }
  };
}
