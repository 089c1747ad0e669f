/**
 * Which URLs a server may make the client reach for authorization. An MCP server names its
 * protected-resource metadata and, through it, its authorization server; a hostile one would
 * aim those at the user's browser with a scheme the system runs (`file:`, `ms-msdt:`), or at the
 * user's own network (a router's admin page, a cloud's metadata service). Only `https:` may go
 * anywhere, plain `http:` only to loopback; and no request goes to a loopback, private or
 * link-local address unless the MCP server itself is at one (a server on the same network). The
 * server's own origin is always reachable: nothing new is reached there.
 * Only literal addresses are judged: a name is resolved by the system, later.
 */

/** Loopback hosts may be spoken to over plain HTTP; anything else must be HTTPS. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/** Why the client will not reach `url` on `server`'s word, or undefined when it may. */
export function refusalToReach(url: URL, server: URL): string | undefined {
  // Before the origin: a `blob:` URL has the origin of the URL inside it.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `${url.protocol} is not https: (plain http: is for loopback only)`;
  }
  // The server's own origin is reached already, and its well-known URLs are asked anyway.
  if (url.origin === server.origin) return undefined;
  if (url.protocol === 'http:' && !isLoopback(url)) {
    return `${url.protocol} is not https: (plain http: is for loopback only)`;
  }
  const where = addressKind(url.hostname);
  if (where && addressKind(server.hostname) === undefined) {
    return `it is a ${where} address, and the MCP server is not on one`;
  }
  return undefined;
}

type AddressKind = 'loopback' | 'private' | 'link-local';

/** The kind of a literal IP address that is not public, or undefined (a name, a public address). */
export function addressKind(hostname: string): AddressKind | undefined {
  // A name may end in the root's dot; `*.localhost` is loopback by definition (RFC 6761).
  hostname = hostname.replace(/\.$/, '');
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return 'loopback';
  // The URL parser writes IPv4 in dotted decimal and IPv6 compressed, in brackets.
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hostname);
  if (v4) return ipv4Kind(v4.slice(1).map(Number));
  if (hostname.startsWith('[')) return ipv6Kind(hostname.slice(1, -1));
  return undefined;
}

function ipv4Kind([a = 0, b = 0]: number[]): AddressKind | undefined {
  if (a === 127 || a === 0) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168)) return 'private';
  // Shared address space (RFC 6598), where carrier-grade NAT puts its customers.
  if (a === 100 && b >= 64 && b < 128) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  return undefined;
}

function ipv6Kind(address: string): AddressKind | undefined {
  const words = expand(address);
  if (!words) return undefined;
  if (words.slice(0, 7).every((word) => word === 0)) {
    return words[7] === 1 || words[7] === 0 ? 'loopback' : undefined;
  }
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address is what is reached.
  if (words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff) {
    const [high = 0, low = 0] = words.slice(6);
    return ipv4Kind([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  const first = words[0] ?? 0;
  if ((first & 0xfe00) === 0xfc00) return 'private';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  return undefined;
}

/** The eight 16-bit words of a compressed IPv6 address (as the URL parser writes it). */
function expand(address: string): number[] | undefined {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part ? part.split(':').map((word) => parseInt(word, 16)) : []);
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  const missing = 8 - start.length - end.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const words = [...start, ...new Array<number>(missing).fill(0), ...end];
  return words.some((word) => Number.isNaN(word)) ? undefined : words;
}
