/**
 * An undici dispatcher for tests that must see where the client went: it records every request
 * (its origin as the client asked for it, its path and its headers as text, so a test can look
 * for a credential where it should not be), and may send one host name to loopback, so that a
 * local server has a name rather than a loopback address, as a remote one does.
 */
import { Agent, type Dispatcher } from 'undici';

export interface WireRecord {
  origin: string;
  path: string;
  /** The request's headers as the client gave them to undici, as text. */
  headers: string;
}

export interface RecordingDispatcher extends AsyncDisposable {
  /** Pass as the client's (or discovery's) `dispatcher`; closed by disposing this. */
  dispatcher: Dispatcher;
  requests: WireRecord[];
  /** The origin of each request, in order. */
  readonly origins: string[];
}

/** `named`: a host name whose requests go to 127.0.0.1, on the port they name. */
export function recordingDispatcher(options: { named?: string } = {}): RecordingDispatcher {
  const agent = new Agent();
  const requests: WireRecord[] = [];
  const { named } = options;
  const dispatcher = agent.compose(
    (dispatch) => (sent: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
      const origin = String(sent.origin);
      const headers = sent.headers;
      requests.push({
        origin,
        path: sent.path,
        headers: JSON.stringify(
          headers && typeof headers === 'object' && Symbol.iterator in headers
            ? [...(headers as Iterable<unknown>)]
            : headers,
        ),
      });
      const to = named ? origin.replace(`//${named}:`, '//127.0.0.1:') : origin;
      return dispatch({ ...sent, origin: to }, handler);
    },
  );
  return {
    dispatcher,
    requests,
    get origins() {
      return requests.map((request) => request.origin);
    },
    [Symbol.asyncDispose]: () => agent.close(),
  };
}
