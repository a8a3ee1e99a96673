import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiOnce, newIdempotencyKey } from './api-client.ts';

/** The browser globals apiRequest reads (this suite runs in Node): the page's origin, and fetch. */
const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  vi.stubGlobal('window', { location: { origin: 'http://shop.test' } });
  vi.stubGlobal('fetch', fetchMock);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const created = () => new Response(JSON.stringify({ _id: 'o1' }), { status: 201 });
const keyOf = (call: number) =>
  (fetchMock.mock.calls[call]?.[1]?.headers as Record<string, string> | undefined)?.['idempotency-key'];

describe('apiOnce: one Idempotency-Key per submit, one retry with it when the network fails', () => {
  it('retries a network failure once, with the same key', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(created());
    const result = apiOnce('/myorder', { method: 'POST', body: { partId: 'p' } });
    await vi.runAllTimersAsync();
    expect(await result).toEqual({ _id: 'o1' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(keyOf(0)).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(keyOf(1)).toBe(keyOf(0));
  });

  it('gives up after the one retry, and never retries an answer the server gave', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const failing = apiOnce('/myorder', { method: 'POST', body: {} }).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await failing).toMatchObject({ code: 'network_error' });
    expect(fetchMock).toHaveBeenCalledTimes(2);

    fetchMock.mockReset();
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ error: { code: 'stock_out', message: 'x' } }), { status: 422 }),
    );
    await expect(apiOnce('/myorder', { method: 'POST', body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('each submit has a key of its own', async () => {
    fetchMock.mockImplementation(async () => created());
    await apiOnce('/myorder', { method: 'POST', body: {} });
    await apiOnce('/myorder', { method: 'POST', body: {} });
    expect(keyOf(0)).not.toBe(keyOf(1));
    expect(new Set(Array.from({ length: 50 }, newIdempotencyKey)).size).toBe(50);
  });
});
