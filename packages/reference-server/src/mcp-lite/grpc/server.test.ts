import { describe, expect, it } from 'vitest';
import { GrpcFaultController } from './faults.ts';
import { startGrpcReferenceServer } from './server.ts';

describe('the gRPC reference server', () => {
  it('refuses a port out of range, and closes twice without trouble', async () => {
    await expect(startGrpcReferenceServer({ port: 70_000 })).rejects.toThrow(RangeError);
    const server = await startGrpcReferenceServer();
    expect(server.url).toMatch(/^grpc:\/\/127\.0\.0\.1:\d+$/);
    await server.close();
    await server.close();
    expect(server.sessions()).toBe(0);
  });
});

describe('its faults', () => {
  it('refuse what makes no sense', () => {
    const faults = new GrpcFaultController();
    expect(() => faults.failNext(-1, { code: 'UNAVAILABLE' })).toThrow(RangeError);
    expect(() => faults.failNext(1, { code: 'UNAVAILABLE', pushbackMs: 1.5 })).toThrow(RangeError);
    expect(() => faults.unknownResponseType(2)).toThrow(RangeError);
    expect(() => faults.delay(-5)).toThrow(RangeError);
  });

  it('fail the named RPC only, as many times as asked, then nothing', () => {
    const faults = new GrpcFaultController();
    faults.failNext(2, { code: 'UNAVAILABLE', rpc: 'CallTool' });
    expect(faults.takeFailure('GetTools')).toBeUndefined();
    expect(faults.takeFailure('CallTool')?.code).toBe('UNAVAILABLE');
    expect(faults.takeFailure('CallTool')?.code).toBe('UNAVAILABLE');
    expect(faults.takeFailure('CallTool')).toBeUndefined();
  });

  it('cut one stream and give one unknown type, then reset clears the rest', () => {
    const faults = new GrpcFaultController();
    faults.cutStreamBeforeMeta();
    faults.unknownResponseType();
    expect(faults.takeCut()).toBe(true);
    expect(faults.takeCut()).toBe(false);
    expect(faults.takeUnknownType()).toBe(99);
    expect(faults.takeUnknownType()).toBeUndefined();
    faults.delay(10);
    faults.failNext(1, { code: 'INTERNAL' });
    faults.reset();
    expect(faults.delayMs).toBe(0);
    expect(faults.takeFailure('CallTool')).toBeUndefined();
  });
});
