import type { IncomingMessage } from 'node:http';
import { header } from './http-util.ts';

/**
 * DNS-rebinding protection: a page on an attacker's domain that resolves to 127.0.0.1 reaches the
 * server with its own Host and Origin, so both must name loopback (or an explicitly allowed origin).
 */
export class OriginPolicy {
  readonly #hosts: Set<string>;
  readonly #origins: Set<string>;

  constructor(port: number, boundHost: string, allowedOrigins: readonly string[]) {
    const hostnames = ['127.0.0.1', 'localhost', '[::1]'];
    // A server bound to a specific non-loopback address (CLI use) must accept its own name too.
    if (!['0.0.0.0', '::', ''].includes(boundHost)) {
      hostnames.push(boundHost.includes(':') ? `[${boundHost}]` : boundHost);
    }
    // Going through URL gives the same spelling browsers use (e.g. no ":80" on port 80).
    const urls = hostnames.flatMap((name) => [`http://${name}:${port}`, `https://${name}:${port}`]);
    this.#hosts = new Set(urls.map((url) => new URL(url).host));
    this.#origins = new Set(urls.map((url) => new URL(url).origin));
    for (const origin of allowedOrigins) {
      const normalized = normalizeOrigin(origin);
      this.#origins.add(normalized ?? origin);
      if (normalized !== undefined) this.#hosts.add(new URL(normalized).host);
    }
  }

  /** True when the request may proceed. */
  allows(req: IncomingMessage): boolean {
    const host = header(req, 'host')?.toLowerCase();
    if (host === undefined || !this.#hosts.has(host)) return false;
    const origin = header(req, 'origin');
    return origin === undefined || this.#origins.has(normalizeOrigin(origin) ?? origin);
  }
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}
