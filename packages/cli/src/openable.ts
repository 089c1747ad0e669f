/**
 * Which URLs the CLI shows a person as a page to open, or hands to the system's opener: https,
 * or http to this machine's loopback. A sign-in URL comes from a server's metadata; anything else
 * (file:, javascript:, a custom scheme an app registered, http across a network) is refused
 * before anything is printed or opened. The client refuses such authorization endpoints too;
 * this holds even if that ever changes.
 */
import { CliError, EXIT } from './exit-codes.ts';
import { visible } from './printable.ts';

/** A URL the CLI would not show or open. */
export class UnsafeUrlError extends CliError {
  override readonly name = 'UnsafeUrlError';
  readonly url: string;
  constructor(url: URL, what: string) {
    super(
      EXIT.connection,
      `refused to open ${what} ${visible(url.href).slice(0, 300)}: only https: URLs (or http: to 127.0.0.1, [::1] or localhost) are opened`,
    );
    this.url = url.href;
  }
}

/** Throws an UnsafeUrlError unless `url` is https:, or http: to a loopback host. */
export function checkOpenable(url: URL, what: string): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return;
  throw new UnsafeUrlError(url, what);
}

/**
 * 127.0.0.0/8, ::1 or localhost, as a parsed URL writes its host: the parser has already turned
 * `127.1`, `0x7f.1` and `[0:0::1]` into `127.0.0.1` and `[::1]`.
 */
export function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
