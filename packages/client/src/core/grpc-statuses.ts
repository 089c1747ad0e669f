/**
 * gRPC status names by code, as GrpcStatusError shows them. A module of its own, below errors.ts:
 * wire-codes.ts, where the statuses are mapped to classes, imports the classes, so the table
 * cannot live there without a cycle.
 */

/** gRPC status names, indexed by code. */
const NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

/** `UNAVAILABLE` for 14; `status 42` for a code gRPC does not define. */
export function grpcStatusName(code: number): string {
  return NAMES[code] ?? `status ${code}`;
}
