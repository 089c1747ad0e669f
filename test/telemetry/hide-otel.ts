/**
 * Preloaded into a worker process (`--import`): makes `@opentelemetry/api` impossible to find, as
 * in an application that does not install it, and counts how often it is looked for.
 */
import { registerHooks } from 'node:module';

const counter = globalThis as { otelLookups?: number };
counter.otelLookups = 0;

registerHooks({
  resolve(specifier, context, next) {
    if (specifier === '@opentelemetry/api') {
      counter.otelLookups = (counter.otelLookups ?? 0) + 1;
      throw Object.assign(new Error(`Cannot find package '${specifier}'`), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    }
    return next(specifier, context);
  },
});
