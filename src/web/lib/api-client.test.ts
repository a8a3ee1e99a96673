import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiOnce, newIdempotencyKey, SubmitKeys } from './api-client.ts';

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

describe('SubmitKeys: one key per form state', () => {
  it('gives the same key for the same state, a new one when the state changes, and never an old one back', () => {
    const keys = new SubmitKeys();
    const first = keys.keyFor({ partId: 'p', quantity: 3, address: '' });
    expect(keys.keyFor({ partId: 'p', quantity: 3, address: '' })).toBe(first);
    const changed = keys.keyFor({ partId: 'p', quantity: 4, address: '' });
    expect(changed).not.toBe(first);
    // Back to the first state after a change: a new request, so a new key (the old one may be a placed order).
    expect(keys.keyFor({ partId: 'p', quantity: 3, address: '' })).not.toBe(first);
  });

  it('is sent by apiOnce as the Idempotency-Key', async () => {
    fetchMock.mockResolvedValue(created());
    const key = new SubmitKeys().keyFor({ partId: 'p' });
    await apiOnce('/myorder', { method: 'POST', body: { partId: 'p' } }, key);
    expect(keyOf(0)).toBe(key);
  });
});
