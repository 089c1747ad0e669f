/**
 * An MCPB bundle fetched and checked against its `fileSha256` before anything may open it: read
 * bounded, hashed as it arrives, written only once the digest matches. Redirects are followed
 * (release downloads live on another host) over https alone, and the final URL is reported:
 * the digest, not the host, is what vouches for the bytes.
 */
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { DiscoveryError } from '../core/errors.ts';
import { abandon, discard, send } from '../wire/transport/http.ts';
import { type FetchOptions, withDispatcher } from './fetch-document.ts';
import type { PackageSpec } from './types.ts';

export interface BundleOptions extends FetchOptions {
  /** The directory the verified bundle is written to. */
  dir: string;
  /** The most a bundle may be, in bytes (256 MiB). */
  maxBundleBytes?: number | undefined;
}

export interface VerifiedBundle {
  file: string;
  /** Where the bytes came from, after redirects. */
  from: string;
  sha256: string;
}

const MAX_REDIRECTS = 5;

export async function verifyBundle(
  pkg: PackageSpec,
  options: BundleOptions,
): Promise<VerifiedBundle> {
  if (pkg.registryType !== 'mcpb') throw new TypeError(`${pkg.identifier} is not an mcpb package`);
  const expected = pkg.fileSha256;
  if (!expected)
    throw new DiscoveryError('bundle', `${pkg.identifier} has no fileSha256: not run unverified`);
  if (!/^https?:\/\//.test(pkg.identifier) || !URL.canParse(pkg.identifier)) {
    throw new DiscoveryError('bundle', 'identifier is not a URL');
  }
  return withDispatcher(options, async (dispatcher) => {
    const { bytes, from } = await download(dispatcher, pkg.identifier, options);
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== expected) {
      throw new DiscoveryError(
        'bundle',
        `SHA-256 is ${actual}, the entry says ${expected}: not written`,
        { url: from },
      );
    }
    const { mkdir, writeFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await mkdir(options.dir, { recursive: true });
    const file = join(options.dir, `${expected}.mcpb`);
    await writeFile(file, bytes);
    return { file, from, sha256: actual };
  });
}

async function download(
  dispatcher: Dispatcher,
  start: string,
  options: BundleOptions,
): Promise<{ bytes: Buffer; from: string }> {
  const limit = options.maxBundleBytes ?? 256 * 1024 * 1024;
  const signal = options.signal ?? AbortSignal.timeout(options.timeoutMs ?? 120_000);
  let at = start;
  for (let hop = 0; ; hop++) {
    const response = await send(dispatcher, { url: at, method: 'GET', headers: {}, signal });
    if (response.status >= 300 && response.status < 400) {
      discard(response);
      const location = response.header('location');
      const next = location && URL.canParse(location, at) ? new URL(location, at) : undefined;
      const downgrade = next && next.protocol !== 'https:' && new URL(at).protocol === 'https:';
      if (!next || downgrade || hop === MAX_REDIRECTS) {
        throw new DiscoveryError('bundle', 'redirected somewhere not followed', {
          url: at,
          status: response.status,
        });
      }
      at = next.href;
      continue;
    }
    if (response.status !== 200) {
      discard(response);
      throw new DiscoveryError('bundle', `download answered ${response.status}`, {
        url: at,
        status: response.status,
      });
    }
    if (Number(response.header('content-length')) > limit) {
      abandon(response);
      throw new DiscoveryError('bundle', `larger than ${limit} bytes`, { url: at });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        abandon(response);
        throw new DiscoveryError('bundle', `larger than ${limit} bytes`, { url: at });
      }
      chunks.push(chunk as Buffer);
    }
    return { bytes: Buffer.concat(chunks), from: at };
  }
}
