import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiOnce, namesNothing, newIdempotencyKey, SubmitKeys, worthRetrying } from './api-client.ts';

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

describe('which failures name nothing, and which are worth asking again', () => {
  const invalid = (path: string) => new ApiError(400, 'invalid_data', 'x', [{ path, message: 'x' }]);

  it('a 404, or a 400 about the address itself, names nothing: the not-found page, not a retry', () => {
    expect(namesNothing(new ApiError(404, 'not_found', 'This part does not exist.'))).toBe(true);
    expect(namesNothing(invalid('params.id'))).toBe(true);
    // A bad query or body is the page's own mistake, not a missing page.
    expect(namesNothing(invalid('query.vehicle'))).toBe(false);
    expect(namesNothing(invalid('body.quantity'))).toBe(false);
    expect(namesNothing(new ApiError(503, 'service_unavailable', 'x'))).toBe(false);
    expect(namesNothing(new Error('x'))).toBe(false);
  });

  it('offers to try again after an outage, never after an answer that would be the same', () => {
    for (const status of [0, 500, 502, 503, 507, 408, 429])
      expect(worthRetrying(new ApiError(status, 'x', 'x')), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422])
      expect(worthRetrying(new ApiError(status, 'x', 'x')), String(status)).toBe(false);
    // A failed schema check or a chunk that did not load: asking again may help.
    expect(worthRetrying(new Error('Failed to fetch dynamically imported module'))).toBe(true);
  });
});
