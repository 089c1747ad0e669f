/**
 * The registry read: the dialects' descriptors as a list, the choices the `dialect` option offers,
 * and which kind of channel a URL is reached over.
 */
import type { DialectDescriptor } from './descriptor.ts';
import { isGrpcUrl } from './mcp-lite/grpc/url.ts';
import * as registry from './registry.ts';
import type { Medium } from './shared.ts';

type Registered = (typeof registry)[keyof typeof registry];

/** Every dialect's descriptor, in the registry's order. */
export const DIALECT_DESCRIPTORS: readonly Registered[] = Object.values(registry);

/**
 * Which dialect to speak. `'auto'` finds out; `'mcp'` tries only MCP's; a dialect's name (what
 * `client.dialect` reports) speaks that one without probing for the others.
 */
export const DIALECTS = ['auto', 'mcp', ...DIALECT_DESCRIPTORS.map(({ name }) => name)] as const;
export type DialectChoice = 'auto' | 'mcp' | Registered['name'];

/** The descriptor a `dialect` option or a verdict names, if the client has that dialect. */
export function descriptorNamed(name: string): DialectDescriptor | undefined {
  return DIALECT_DESCRIPTORS.find((descriptor) => descriptor.name === name) as
    | DialectDescriptor
    | undefined;
}

/** The dialects that may run on `on`: all of them for `'auto'`, MCP's for `'mcp'`, else the one named. */
export function dialectsFor(dialect: string, on: Medium): DialectDescriptor[] {
  return (DIALECT_DESCRIPTORS as readonly DialectDescriptor[]).filter(
    (descriptor) =>
      descriptor.runsOn.includes(on) &&
      (dialect === 'auto' ||
        (dialect === 'mcp' ? descriptor.era !== undefined : descriptor.name === dialect)),
  );
}

/** A URL's kind of channel: grpc:// and grpcs:// name gRPC, anything else is HTTP. */
export function mediumOf(url: URL | string): Exclude<Medium, 'stdio'> {
  return isGrpcUrl(url) ? 'grpc' : 'http';
}
