/**
 * grpc:// and grpcs:// URLs name MCP-lite's gRPC binding: HTTP/2 in cleartext (h2c) or over TLS.
 * No gRPC code is imported here, so options and negotiation can ask without loading the stack.
 */

const SCHEMES: Record<string, { http: string; port: string }> = {
  'grpc:': { http: 'http:', port: '80' },
  'grpcs:': { http: 'https:', port: '443' },
};

export function isGrpcUrl(url: URL | string): boolean {
  const protocol = typeof url === 'string' ? url.slice(0, url.indexOf(':') + 1) : url.protocol;
  return protocol.toLowerCase() in SCHEMES;
}

/**
 * The HTTP/2 URL the binding's paths go under: `grpcs://host:8443/prefix` is
 * `https://host:8443/prefix`, so calls go to `/prefix/mcplite.MCPLite/CallTool`. Without a port,
 * 80 or 443 as for HTTP.
 */
export function httpBaseOf(url: string): string {
  const parsed = new URL(url);
  const scheme = SCHEMES[parsed.protocol];
  if (!scheme) throw new TypeError(`expected a grpc: or grpcs: URL, got "${parsed.protocol}"`);
  const path = parsed.pathname.replace(/\/+$/, '');
  // An IPv6 host keeps its brackets in `hostname` under these schemes.
  return `${scheme.http}//${parsed.hostname}:${parsed.port || scheme.port}${path}`;
}
