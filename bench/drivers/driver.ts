/**
 * The one shape every client is driven through, so the measuring code is the same for all of
 * them and only the few lines that speak to a client differ.
 */
export interface Session {
  /** Calls a tool and resolves once its result has been read and decoded. */
  call(tool: string, args?: Record<string, unknown>): Promise<unknown>;
  /** Closes the client the way its documentation says to. */
  close(): Promise<void>;
}

export interface Driver {
  /** Connects (handshake included) and resolves once calls can be made. */
  connect(url: string): Promise<Session>;
}

export const CLIENT_INFO = { name: 'toolwire-bench', version: '0.0.0' };
