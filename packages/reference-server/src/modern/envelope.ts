/**
 * The 2026-07-28 request envelope: which POSTs are modern, and the checks every modern request
 * passes before a handler sees it (version header, required `_meta`, supported version).
 */
import type { IncomingMessage } from 'node:http';
import type { ModernRequest } from '../context.ts';
import { header } from '../http-util.ts';
import { isObject, type JsonObject } from '../jsonrpc.ts';
import { isLoggingLevel } from '../logging.ts';

/** The revisions served statelessly with per-request `_meta`. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** Error codes 2026-07-28 adds. */
export const ModernCode = {
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** A request refused before (or instead of) running: HTTP status plus JSON-RPC error. */
export class Refusal extends Error {
  readonly status: number;
  readonly code: number;
  readonly data: unknown;

  constructor(status: number, code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'Refusal';
    this.status = status;
    this.code = code;
    this.data = data;
  }
}

function metaOf(params: unknown): JsonObject | undefined {
  const meta = isObject(params) ? params['_meta'] : undefined;
  return isObject(meta) ? meta : undefined;
}

/**
 * Whether a message opens the modern era on a dual-era endpoint: its `_meta` carries one of the
 * per-request `io.modelcontextprotocol/` fields, or its `MCP-Protocol-Version` names a modern
 * revision. Legacy clients send neither (their version lives in the session), so a body without
 * `_meta` still reaches the legacy code exactly as before.
 */
export function isModernMessage(req: IncomingMessage | undefined, value: unknown): boolean {
  const version = req === undefined ? undefined : header(req, 'mcp-protocol-version');
  if (version !== undefined && MODERN_VERSIONS.includes(version)) return true;
  const meta = metaOf(isObject(value) ? value['params'] : undefined);
  return (
    meta !== undefined &&
    (META.protocolVersion in meta || META.clientCapabilities in meta || META.clientInfo in meta)
  );
}

/**
 * Checks the version header and the required `_meta`, in the order that makes each refusal name
 * the first problem: header missing (-32020), `_meta` incomplete (-32602), header and `_meta`
 * disagreeing (-32020), version not served (-32022).
 */
export function checkEnvelope(
  req: IncomingMessage,
  params: unknown,
  supported: readonly string[],
): ModernRequest {
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined) {
    throw new Refusal(
      400,
      ModernCode.HeaderMismatch,
      'Header mismatch: MCP-Protocol-Version header is required',
    );
  }
  return checkMeta(params, supported, version);
}

/**
 * The `_meta` checks alone, for a binding without headers (stdio): `_meta` incomplete (-32602),
 * disagreeing with the version `header` (-32020, when there is one), version not served (-32022).
 */
export function checkMeta(
  params: unknown,
  supported: readonly string[],
  header?: string,
): ModernRequest {
  const meta = metaOf(params);
  const claimed = meta?.[META.protocolVersion];
  const capabilities = meta?.[META.clientCapabilities];
  if (typeof claimed !== 'string' || !isObject(capabilities)) {
    const missing = [
      ...(typeof claimed === 'string' ? [] : [META.protocolVersion]),
      ...(isObject(capabilities) ? [] : [META.clientCapabilities]),
    ];
    throw new Refusal(400, -32602, `Invalid params: _meta must carry ${missing.join(' and ')}`, {
      missing,
    });
  }
  if (header !== undefined && claimed !== header) {
    throw new Refusal(
      400,
      ModernCode.HeaderMismatch,
      `Header mismatch: MCP-Protocol-Version header '${header}' does not match _meta protocolVersion '${claimed}'`,
    );
  }
  if (!MODERN_VERSIONS.includes(claimed)) {
    throw new Refusal(
      400,
      ModernCode.UnsupportedProtocolVersion,
      `Unsupported protocol version: ${claimed} (supported: ${supported.join(', ')})`,
      { supported: [...supported], requested: claimed },
    );
  }
  const level = meta?.[META.logLevel];
  if (level !== undefined && !isLoggingLevel(level)) {
    throw new Refusal(400, -32602, `Invalid params: unknown log level ${String(level)}`);
  }
  const body = isObject(params) ? params : {};
  return {
    clientCapabilities: capabilities,
    logLevel: level,
    inputResponses: body['inputResponses'],
    requestState: body['requestState'],
  };
}
