/**
 * What every dialect implements. A dialect turns an operation into wire traffic and the answer
 * into an `Outcome`; it knows nothing of the call loop, the caches or the handlers.
 */
import type { Deadline } from '../deadline.ts';
import type { JsonObject, JsonRpcNotification } from '../jsonrpc.ts';
import type { Outcome } from '../outcome.ts';

/** One request the client makes: a JSON-RPC method with its params. */
export interface Operation {
  method: string;
  params?: JsonObject | undefined;
  /** May be sent again after the server may have seen it. */
  idempotent: boolean;
  /** The tool's name, for `tools/call`: it goes into error messages. */
  tool?: string | undefined;
}

/** Progress the server reported for one call. */
export interface Progress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

export interface SendContext {
  deadline: Deadline;
  /** Set when the caller wants progress; the dialect then asks the server for it. */
  onProgress?: ((progress: Progress) => void) | undefined;
}

/** What the server said about itself when the connection was set up. */
export interface ServerDescription {
  protocolVersion: string;
  serverInfo: { name: string; version: string; title?: string | undefined } & JsonObject;
  capabilities: JsonObject;
  instructions: string | undefined;
}

/** Where a dialect hands what the server says outside any call's answer. */
export interface DialectEvents {
  notification(message: JsonRpcNotification): void;
  /** Something went wrong in the background (a listen stream that gave up, say); never thrown. */
  warning(error: Error): void;
}

export interface Dialect {
  readonly name: string;
  readonly server: ServerDescription;
  send(operation: Operation, context: SendContext): Promise<Outcome>;
  /** Tears down whatever the dialect holds open (streams, sessions). Never throws. */
  close(): Promise<void>;
}
