/**
 * An undici Agent to inject into the client that notices when a server has answered the client's
 * GET stream. Servers drop what they send outside any call while no GET stream is open, so a
 * test that expects such a message (a log entry, a list change) waits for the stream first
 * rather than for an amount of time.
 */
import { Agent, type Dispatcher } from 'undici';

export interface WireWatch extends AsyncDisposable {
  /** Pass as the client's `dispatcher`; closed by disposing the watch, after the client. */
  dispatcher: Dispatcher;
  /** How many GET requests the server has answered with 200 so far. */
  openStreams(): number;
}

export function watchWire(): WireWatch {
  const agent = new Agent();
  let opened = 0;
  const dispatcher = agent.compose(
    (dispatch) => (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
      if (options.method !== 'GET') return dispatch(options, handler);
      return dispatch(
        options,
        onStatus(handler, (status) => {
          if (status === 200) opened += 1;
        }),
      );
    },
  );
  return {
    dispatcher,
    openStreams: () => opened,
    [Symbol.asyncDispose]: () => agent.close(),
  };
}

/** The same handler, reporting the response status once, whichever handler API undici calls. */
function onStatus(
  handler: Dispatcher.DispatchHandler,
  report: (status: number) => void,
): Dispatcher.DispatchHandler {
  let reported = false;
  const once = (status: unknown) => {
    if (reported || typeof status !== 'number') return;
    reported = true;
    report(status);
  };
  return new Proxy(handler, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      if (property === 'onResponseStart') {
        return (...args: unknown[]) => {
          once(args[1]);
          return value.apply(target, args);
        };
      }
      if (property === 'onHeaders') {
        return (...args: unknown[]) => {
          once(args[0]);
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}
