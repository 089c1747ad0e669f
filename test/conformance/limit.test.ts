import { describe, expect, it } from 'vitest';
import { createLimit } from './limit.ts';

describe('createLimit', () => {
  it('never runs more tasks at once than its concurrency, and runs them all', async () => {
    const limit = createLimit(2);
    let running = 0;
    let peak = 0;
    const task = async (value: number) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return value;
    };
    const results = await Promise.all([1, 2, 3, 4, 5].map((value) => limit(() => task(value))));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it('frees the slot of a task that throws', async () => {
    const limit = createLimit(1);
    await expect(limit(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limit(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
