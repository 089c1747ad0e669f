/**
 * The raw pipe of `stdio-raw.ts` to a child started as toolwire starts it on POSIX: the leader of
 * a process group of its own (`detached`: a new session), which is what lets `close()` end the
 * server with everything it started. Beside the floor, it shows what that guarantee costs alone.
 */
import { rawPipe } from './stdio-raw.ts';

export default rawPipe({ detached: true });
